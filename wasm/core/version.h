#pragma once
namespace gcscope {
inline constexpr const char* kVersion = "0.1.0";
}
