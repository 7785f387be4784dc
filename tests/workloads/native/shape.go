// SPDX-License-Identifier: GPL-2.0-or-later
// A Go program of known shape, built by tests/run-native.sh: main.leafA,
// main.leafB and main.leafC share its time 6:3:1 (all in main.spin).
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// With PROF_WORKLOAD_CPU set, add the CPU seconds used to that file, as
// the C workloads do: tests set their sample floors from it.
func reportCPU() {
	path := os.Getenv("PROF_WORKLOAD_CPU")
	var ru syscall.Rusage
	if path == "" || syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%.6f\n", float64(ru.Utime.Sec+ru.Stime.Sec)+float64(ru.Utime.Usec+ru.Stime.Usec)/1e6)
	f.Close()
}

//go:noinline
func spin(n int) int {
	x := n
	for i := 0; i < 200000; i++ {
		x = x*1664525 + i
	}
	return x
}

//go:noinline
func leafA(n int) int { return spin(n) ^ 1 }

//go:noinline
func leafB(n int) int { return spin(n) ^ 2 }

//go:noinline
func leafC(n int) int { return spin(n) ^ 3 }

func main() {
	secs := 1.0
	if len(os.Args) > 1 {
		secs, _ = strconv.ParseFloat(os.Args[1], 64)
	}
	end := time.Now().Add(time.Duration(secs * float64(time.Second)))
	acc := 0
	for time.Now().Before(end) {
		for i := 0; i < 6; i++ {
			acc += leafA(i)
		}
		for i := 0; i < 3; i++ {
			acc += leafB(i)
		}
		acc += leafC(1)
	}
	reportCPU()
	os.Exit(acc & 0)
}
