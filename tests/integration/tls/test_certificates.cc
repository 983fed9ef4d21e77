#include "tests/integration/tls/test_certificates.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace integration {

CommandOutput run_command(const std::string& command) {
  CommandOutput result;
  const std::string full = "(" + command + ") </dev/null 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.out.append(buffer, n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TestCertificates::TestCertificates() {
  char pattern[] = "/tmp/decisiond-tls-XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    error_ = "mkdtemp failed";
    return;
  }
  dir_ = pattern;
  const std::string names = "-subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 -nodes";
  if (!run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 " + names + " -keyout " + ecdsa_key() +
           " -out " + ecdsa_cert())) {
    return;
  }
  if (!run("openssl req -x509 -newkey rsa:2048 " + names + " -keyout " + rsa_key() + " -out " + rsa_cert())) return;
  chmod(ecdsa_key().c_str(), 0600);
  chmod(rsa_key().c_str(), 0600);
}

TestCertificates::~TestCertificates() {
  std::error_code ignored;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
}

bool TestCertificates::make_ecdsa(const std::string& name, const std::string& common_name) {
  const std::string key = dir_ + "/" + name + ".key";
  const bool made = run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=" + common_name +
                        " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 -nodes -keyout " + key +
                        " -out " + dir_ + "/" + name + ".pem");
  chmod(key.c_str(), 0600);
  return made;
}

bool TestCertificates::run(const std::string& command) {
  const CommandOutput out = run_command(command);
  if (out.status != 0) error_ = command + ": " + out.out;
  return out.status == 0;
}

std::string TestCertificates::write(const std::string& name, const std::string& text, unsigned mode) const {
  const std::string path = dir_ + "/" + name;
  std::ofstream(path) << text;
  chmod(path.c_str(), mode);
  return path;
}

}  // namespace integration
