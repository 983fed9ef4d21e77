// FileIo on the reactor: each file operation is one entry in the ring whose user data
// carries its completion object and the caller's tag (reactor.h file_user_data).
#include "runtime/reactor.h"

#include <fcntl.h>

namespace runtime {

void Reactor::write(int fd, const char* data, size_t length, uint64_t offset, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_write(sqe, fd, data, static_cast<unsigned>(length), offset);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::sync_data(int fd, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::open(const char* path, int flags, unsigned mode, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_openat(sqe, AT_FDCWD, path, flags, mode);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::close(int fd, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_close(sqe, fd);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::rename(const char* from, const char* to, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_renameat(sqe, AT_FDCWD, from, AT_FDCWD, to, 0);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

void Reactor::unlink(const char* path, FileCompletion& done, uint8_t tag) {
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_unlinkat(sqe, AT_FDCWD, path, 0);
  io_uring_sqe_set_data64(sqe, file_user_data(done, tag));
}

}  // namespace runtime
