// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "chess/fen.h"
#include "chess/perft.h"

using namespace outpost;

TEST(Perft, StartPositionDepth4) { EXPECT_EQ(perft(Position::startpos(), 4), 197281u); }

TEST(Fen, StartPositionRoundTrip) { EXPECT_EQ(to_fen(Position::startpos()), StartFen); }
