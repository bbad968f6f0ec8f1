// Package nnue is a learned evaluation of Hive positions in the shape of
// an NNUE ("efficiently updatable neural network"): a wide first layer over
// sparse inputs whose sum, the accumulator, is kept up to date as moves are
// made and taken back, then a tiny dense head. It reads positions only
// through core, so that the searcher (package ai) can use it; the network
// is trained by package nnue/train.
//
// # Inputs
//
// Hive has no fixed board and no fixed orientation, and what decides a game
// is the race to surround a Queen, so the inputs place every piece
// relative to a Queen rather than on absolute cells. Each side's Queen
// anchors one perspective (as each King does in chess's HalfKP inputs);
// within it, a piece on the board is one input named by
//
//   - its bug (8) and whether it is the perspective's own or the enemy's;
//   - its state: on the ground, on top of a stack, or covered (a Beetle or
//     Mosquito on it pins it whatever it is);
//   - its hex offset to the perspective's Queen: each of the 37 cells
//     within Radius (3) steps of the Queen has its own bucket, where the
//     fight over the Queen's six cells and the pieces that can reach them
//     is; a piece further off is placed by its direction only (the nearest
//     of the six, or halfway between two) in one of two bands of distance
//     (4 to 5 steps, 6 or more). While a perspective's Queen is still in
//     hand, every piece falls into one more bucket of its own. The buckets
//     turn and mirror with the grid, so the twelve images of a position
//     are twelve samples for training.
//
// A piece in hand is one input per piece (the k-th Ant of the perspective
// or of its enemy still to place), so the material still to come is seen
// as well. That gives NumFeatures inputs per perspective, of which at most
// 28 are on at once (one per piece), and a move changes at most three
// pieces' inputs: the piece moved, the piece it uncovered and the piece it
// covered. Only a move of a perspective's own Queen moves its anchor and
// recomputes that perspective from scratch.
//
// Mobility is the other half of Hive's strategy, and pins (One Hive) are
// not local: one move can free or pin a piece far from it. Rather than
// inputs that change far from the move, the network is also fed a few
// dense counts (Dense): for each side, by bug, its pieces that can move
// and its pieces that are stuck (pinned or covered), as core's Mobility
// gives them. These are the features the hand-tuned evaluation and
// bee-search's network both found to matter; they cost one Mobility call,
// which the search's move generation shares, and go to the output by a
// linear path of their own.
//
// # Network
//
// For the side to move and for its opponent, the accumulator (Hidden
// int16 values: the feature transformer's bias plus the rows of the inputs
// that are on) is clipped to [0, 1] (clipped ReLU); the two, side to move
// first, make the input of the head's hidden layer of L1Size neurons
// (clipped ReLU again), whose weighted sum, plus the dense counts' weighted
// sum, is the output. The output is a logit: the expected score of the
// side to move is its logistic, and Weights.Scale turns it into the native
// evaluation's units. The sizes are small because Go has no vector
// instructions to ask for: the network's cost at every evaluated node must
// stay close to the linear evaluation's (see Net).
//
// Weights are trained in float32 and quantised for inference: the feature
// transformer to int16 at QA (512) to one (training keeps its weights
// within ±FTLimit, 2, so that 28 inputs and the bias never overflow an
// int16), the head's hidden layer to int16 at QB (512) to one, its output
// layer and the dense path to int32 at QO (16384) to one; the head computes
// in integers. The accumulator is exact integer arithmetic, so the one kept
// up to date move by move equals the one recomputed from the board, bit
// for bit, whatever the moves; the quantised network's score is within a
// few units of the float network's (see package nnue/train's tests).
package nnue
