package main

import (
	"os"
	"runtime/pprof"
	"time"
)

func init() {
	p := os.Getenv("HB_PROF")
	if p == "" || len(os.Args) < 2 || os.Args[1] != "serve" {
		return
	}
	go func() {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		time.Sleep(46 * time.Second)
		pprof.StopCPUProfile()
		f.Close()
	}()
}
