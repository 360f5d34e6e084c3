package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// machine describes where the figures were measured.
type machine struct {
	cpu     string  // model name from /proc/cpuinfo
	mhz     float64 // its clock, from the same
	cores   int
	memGB   float64
	kernel  string
	goVer   string
	commit  string // short hash, "+dirty" when the work tree has changes
	subject string // the commit's subject line
}

func describeMachine(root string) machine {
	m := machine{cpu: "unknown CPU", cores: runtime.NumCPU(), goVer: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			switch k = strings.TrimSpace(k); {
			case ok && k == "model name" && m.cpu == "unknown CPU":
				m.cpu = strings.TrimSpace(v)
			case ok && k == "cpu MHz" && m.mhz == 0:
				m.mhz, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				m.memGB = kb / (1 << 20)
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = strings.TrimSpace(string(b))
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		b, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	m.commit = git("rev-parse", "--short", "HEAD")
	m.subject = git("log", "-1", "--format=%s")
	if git("status", "--porcelain", "--untracked-files=no") != "" {
		m.commit += "+dirty"
	}
	return m
}

func (m machine) String() string {
	return fmt.Sprintf("%s, %d cores (GOMAXPROCS %d), %.0f GB, Linux %s, %s, %s/%s",
		m.cpu, m.cores, runtime.GOMAXPROCS(0), m.memGB, m.kernel, m.goVer, runtime.GOOS, runtime.GOARCH)
}

// loadAverage returns the 1-minute load average (0 where /proc/loadavg
// cannot be read).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
