// Outpost tests — a fixture with a temporary directory of the test's own (named after
// the process and the test, so that parallel CTest runs never share one), removed at
// the end, and a writer of files into it.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace outpost::test {

class TempDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() /
               ("outpost_" + std::string(info->test_suite_name()) + "_" + std::to_string(::getpid()) + "_" + info->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // Writes text (bytes as given) to a file in the directory; returns its path.
    std::string write(const std::string& name, const std::string& text) {
        const std::filesystem::path p = dir_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }

    std::filesystem::path dir_;
};

}  // namespace outpost::test
