#include "http/content_coding/coding.h"

namespace http::content_coding {

std::string_view coding_name(Coding coding) {
  switch (coding) {
    case Coding::kGzip: return "gzip";
    case Coding::kZstd: return "zstd";
    case Coding::kIdentity: break;
  }
  return "identity";
}

}  // namespace http::content_coding
