// Package hivejson will speak the Choose-Turn JSON API of the older Hive AI
// modules: its <len>#<json> framing, its messages and its row,col board, on
// both the AI-module side and the game-controller side.
package hivejson
