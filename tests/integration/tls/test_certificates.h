#pragma once
// Certificates for a test, made with the openssl command line in a temporary folder that
// goes with the object: a self-signed ECDSA P-256 certificate (also the CA a client trusts)
// and its key for 127.0.0.1 and localhost, an RSA one for the same names, and faulty files
// for the start-up checks.
#include <string>

namespace integration {

class TestCertificates {
 public:
  TestCertificates();
  ~TestCertificates();
  TestCertificates(const TestCertificates&) = delete;
  TestCertificates& operator=(const TestCertificates&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  std::string ecdsa_cert() const { return dir_ + "/ecdsa.pem"; }
  std::string ecdsa_key() const { return dir_ + "/ecdsa.key"; }
  std::string rsa_cert() const { return dir_ + "/rsa.pem"; }
  std::string rsa_key() const { return dir_ + "/rsa.key"; }
  const std::string& dir() const { return dir_; }
  // Another ECDSA P-256 pair for the same names, its subject CN=common_name: name.pem, name.key.
  bool make_ecdsa(const std::string& name, const std::string& common_name);
  // A file in the folder, written with mode.
  std::string write(const std::string& name, const std::string& text, unsigned mode) const;

 private:
  bool run(const std::string& command);

  std::string dir_;
  std::string error_;
};

// Runs a shell command, its stdin from /dev/null; its stdout and stderr together.
struct CommandOutput {
  int status = -1;
  std::string out;
};
CommandOutput run_command(const std::string& command);

}  // namespace integration
