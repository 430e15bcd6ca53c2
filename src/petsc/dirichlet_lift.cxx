#include "dirichlet_lift.hpp"
#include "logging.hpp"
#include "vec_access.hpp"
#include "../core/boundary_lift.hpp"
#include "../cuda/vector_ops_cuda.hpp"
#include <algorithm>

namespace vpatch {

static BoundaryFaces Faces(const Box &box) { return BoundaryFaces{box.dim, box.n}; }

// The faces' array in space s, zeroed.
PetscErrorCode DirichletLift::faces_in(MemSpace s, double **f)
{
  const size_t n = (size_t)Faces(level_->box).size();
  PetscFunctionBegin;
  if (s == MemSpace::Host) {
    host_.assign(n, 0.0);
    *f = host_.data();
  } else {
    void *stream;
    PetscCall(BufferReserve(device_, s, n, "the boundary faces of full multigrid's lift"));
    PetscCall(CurrentStream(s, &stream));
    device_.zero(stream);
    *f = device_.data();
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DirichletLift::gather(Vec b, bool *nonzero)
{
  const Box &box = level_->box;
  const BoundaryFaces F = Faces(box);
  const size_t n = (size_t)F.size();
  MemSpace s = MemSpace::Host;
  const PetscScalar *ba;
  double *f;
  void *stream = nullptr;
  PetscFunctionBegin;
  PetscCall(VecMemSpace(b, &s));
  PetscCall(PetscLogEventBegin(events.lift, b, 0, 0, 0));
  PetscCall(faces_in(s, &f));
  space_ = s;
  VecRead br(b, s);
  PetscCall(br.get(&ba));
  int mine = 0, any; // a nonzero value (NaN included) among the rank's boundary points
  if (s == MemSpace::Host) {
    cpu::pack_boundary_faces(box, F, ba, f);
    for (size_t i = 0; i < n && !mine; ++i) mine = f[i] != 0;
  } else if constexpr (have_cuda) {
    PetscCall(CurrentStream(s, &stream));
    cuda::pack_boundary_faces(box, ba, f, stream);
    mine = cuda::any_nonzero(n, f, stream);
  }
  PetscCall(br.restore());
  const MPI_Comm comm = level_->comm;
  PetscMPIInt size;
  PetscCallMPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm));
  *nonzero = any != 0;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (*nonzero && size > 1) { // every boundary point is owned by one rank: the sum is its value
    if (s == MemSpace::Device) {
      host_.resize(n);
      if constexpr (have_cuda) cuda::copy_to_host(host_.data(), f, n * sizeof(double), stream);
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, host_.data(), (PetscMPIInt)n, MPI_DOUBLE, MPI_SUM, comm));
    if (s == MemSpace::Device)
      if constexpr (have_cuda) cuda::copy_to_device(f, host_.data(), n * sizeof(double), stream);
  }
  PetscCall(PetscLogEventEnd(events.lift, b, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DirichletLift::apply(Vec y)
{
  const Box &box = level_->box;
  const Element1D &e = *level_->element;
  MemSpace s = MemSpace::Host;
  PetscScalar *ya;
  PetscFunctionBegin;
  PetscCheck(e.k <= LiftGeometry::max_degree, PETSC_COMM_SELF, PETSC_ERR_SUP, "vpatch: the boundary lift supports degrees up to %d", LiftGeometry::max_degree);
  LiftGeometry geo{box.cells, e.k, {}};
  std::copy(e.support.begin(), e.support.end(), geo.support);
  PetscCall(VecMemSpace(y, &s));
  PetscCheck(s == space_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "vpatch: the lift's vector lives in another memory space than the faces");
  PetscCall(PetscLogEventBegin(events.lift, y, 0, 0, 0));
  VecWrite yw(y, s, false);
  PetscCall(yw.get(&ya));
  if (s == MemSpace::Host) cpu::boundary_lift(box, Faces(box), geo, host_.data(), ya);
#if defined(VPATCH_HAVE_CUDA)
  else {
    void *stream;
    PetscCall(CurrentStream(s, &stream));
    PetscCall(PetscLogGpuTimeBegin());
    cuda::boundary_lift(box, geo, device_.data(), ya, stream);
    PetscCall(PetscLogGpuTimeEnd());
  }
#endif
  PetscCall(yw.restore());
  PetscCall(PetscLogEventEnd(events.lift, y, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
