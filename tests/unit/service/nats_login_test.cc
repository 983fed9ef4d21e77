// The rules of a NATS login flag set (service/nats_login.h), as --catalog-user,
// --catalog-password-file and --catalog-creds use them.
#include "service/nats_login.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "gtest/gtest.h"

namespace service {
namespace {

constexpr NatsLoginFlags kFlags{"catalog-user", "catalog-password-file", "catalog-creds", "catalog"};

class SecretFile {
 public:
  SecretFile(const char* text, mode_t mode) {
    char name[] = "/tmp/nats-login-XXXXXX";
    const int fd = ::mkstemp(name);
    ::close(fd);
    path_ = name;
    std::ofstream(path_) << text;
    ::chmod(path_.c_str(), mode);
  }
  ~SecretFile() { ::unlink(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string error_of(const NatsLoginValues& values) {
  const absl::StatusOr<nats_jetstream::Credentials> login = resolve_nats_login(kFlags, values);
  return login.ok() ? "" : std::string(login.status().message());
}

TEST(NatsLogin, NoneIsNoCredentials) {
  const absl::StatusOr<nats_jetstream::Credentials> login = resolve_nats_login(kFlags, {true, "", "", ""});
  ASSERT_TRUE(login.ok());
  EXPECT_TRUE(login->user.empty() && login->password.empty() && login->creds_file.empty());
}

TEST(NatsLogin, AUserReadsItsPasswordFromAPrivateFile) {
  SecretFile password("s3cret\n", 0600);
  const absl::StatusOr<nats_jetstream::Credentials> login = resolve_nats_login(kFlags, {true, "node", password.path(), ""});
  ASSERT_TRUE(login.ok()) << login.status();
  EXPECT_EQ(login->user, "node");
  EXPECT_EQ(login->password, "s3cret");
}

TEST(NatsLogin, EachMisuseNamesItsFlag) {
  SecretFile open_password("s3cret\n", 0644);
  SecretFile creds("-----BEGIN NATS USER JWT-----\n", 0600);
  EXPECT_EQ(error_of({false, "node", "", ""}), "invalid --catalog-user: needs --catalog=nats://...");
  EXPECT_EQ(error_of({false, "", "", creds.path()}), "invalid --catalog-creds: needs --catalog=nats://...");
  EXPECT_EQ(error_of({true, "node", "", ""}), "invalid --catalog-user: needs --catalog-password-file");
  EXPECT_EQ(error_of({true, "", creds.path(), ""}), "invalid --catalog-password-file: needs --catalog-user");
  EXPECT_EQ(error_of({true, "node", creds.path(), creds.path()}),
            "invalid --catalog-creds: a credentials file or a user and password, not both");
  EXPECT_EQ(error_of({true, "node", open_password.path(), ""}),
            "invalid --catalog-password-file: " + open_password.path() + " is readable by others: chmod 600 it");
  EXPECT_EQ(error_of({true, "", "", open_password.path()}),
            "invalid --catalog-creds: " + open_password.path() + " is readable by others: chmod 600 it");
  EXPECT_EQ(error_of({true, "", "", creds.path()}), "");
}

}  // namespace
}  // namespace service
