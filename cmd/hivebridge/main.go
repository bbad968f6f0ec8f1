// Command hivebridge connects Hive programs that speak different protocols
// (UHP, Hub and the Choose-Turn JSON API) through one core game model, and
// answers with its own searcher when no engine is configured.
package main

import (
	"fmt"
	"os"
)

func main() {
	root := NewCmdRoot()
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "hivebridge:", err)
		os.Exit(1)
	}
}
