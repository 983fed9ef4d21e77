// Outgoing connections, precise wakes and cancellation on the reactor: like the file
// operations (reactor_files.cc), each is one entry in the ring whose user data carries its
// completion object and the caller's tag (reactor.h file_user_data), so a client of a
// remote service (a Redis cluster) needs no socket of its own outside the ring.
#include "runtime/reactor.h"

namespace runtime {

void Reactor::connect(int fd, const sockaddr* addr, socklen_t length, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_connect(sqe, fd, addr, length);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::wake_after(const __kernel_timespec& relative, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  // count 0: a pure timeout, not one that completes after a number of other completions.
  io_uring_prep_timeout(sqe, const_cast<__kernel_timespec*>(&relative), 0, 0);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::cancel(FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_cancel64(sqe, file_user_data(done, tag), 0);
  // The cancel's own completion says only whether it found the operation: nobody waits for
  // it (dispatch drops a kCancel that names no socket).
  io_uring_sqe_set_data64(sqe, user_data(Op::kCancel, 0, UINT32_MAX));
}

}  // namespace runtime
