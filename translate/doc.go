// Package translate will hold the Engine interface that every backend
// satisfies, the backend registry and the supervision of engine processes.
package translate
