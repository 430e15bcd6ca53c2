// Smoother kernels, 3D, degrees 6..10 (float and double). Degrees 9 and 10 run where the
// device's shared memory per block suffices (Fused double k = 10 needs about 215 KiB);
// otherwise launch_patch throws std::invalid_argument.
#include "patch_smoother_impl.cuh"
using namespace vpatch;
using namespace vpatch::cuda;
VPATCH_INSTANTIATE_PATCH(3, 6)
VPATCH_INSTANTIATE_PATCH(3, 7)
VPATCH_INSTANTIATE_PATCH(3, 8)
VPATCH_INSTANTIATE_PATCH(3, 9)
VPATCH_INSTANTIATE_PATCH(3, 10)
