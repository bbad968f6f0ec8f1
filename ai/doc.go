// Package ai will hold hivebridge's native searcher: evaluation, search and
// time management over the core game model.
package ai
