// Smoother kernels, 3D, degrees 1..5 (float and double).
#include "patch_smoother_impl.cuh"
using namespace vpatch;
using namespace vpatch::cuda;
VPATCH_INSTANTIATE_PATCH(3, 1)
VPATCH_INSTANTIATE_PATCH_PAIR(3)
VPATCH_INSTANTIATE_PATCH(3, 2)
VPATCH_INSTANTIATE_PATCH(3, 3)
VPATCH_INSTANTIATE_PATCH(3, 4)
VPATCH_INSTANTIATE_PATCH(3, 5)
