package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/toolsearch/toolsearch/gateway/internal/gateway"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// serve runs the gateway until ctx ends (or, over stdio, the client goes
// away).
func serve(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolsearch-mcp serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "Claude/Cursor-style MCP config `file` ({\"mcpServers\": {...}, \"toolsearch\": {...}})")
	listen := fs.String("listen", "", "serve Streamable HTTP at `host:port` (path /mcp) instead of stdio")
	mode := fs.String("mode", "", "dynamic (found tools join the session's tool list) or bridge (fixed list: ToolSearch and CallTool); default: the config's, else dynamic")
	strategy := fs.String("strategy", "", "ranking of keyword queries: default, bm25, hybrid or regex; default: the config's")
	state := fs.String("state", "", "pin state `file` (default: the config's stateFile, else CONFIG.pins.json)")
	noPins := fs.Bool("no-pinning", false, "do not pin tools: serve every tool as listed, changed or not")
	holdNew := fs.Bool("hold-new-servers", false, "hold every tool of a server seen for the first time until approved")
	tokens := fs.String("tokens", "", "bearer tokens `file` for HTTP: {\"tokens\": [{\"name\", \"token\" or \"tokenEnv\", \"allow\": [tool names or \"*\"]}]}")
	var origins stringList
	fs.Var(&origins, "allow-origin", "browser `origin` accepted besides loopback ones (repeatable)")
	allowRemote := fs.Bool("allow-remote", false, "allow --listen on an address that is not loopback (needs --tokens)")
	maxBody := fs.Int64("max-request-bytes", 1<<20, "largest HTTP request body, in `bytes`")
	maxSessions := fs.Int("max-sessions", 4096, "most client sessions served at once")
	rate := fs.Float64("rate", 50, "requests per second allowed per session")
	burst := fs.Int("burst", 100, "requests a session may send at once above --rate")
	idle := fs.Duration("session-idle", 30*time.Minute, "close an HTTP session after this long without a request")
	callTimeout := fs.Duration("call-timeout", 0, "time limit of one forwarded call (default: the config's callTimeout, else 60s)")
	maxResult := fs.Int("max-result-bytes", 8<<20, "largest tool result passed on, in `bytes`")
	startupWait := fs.Duration("startup-wait", 10*time.Second, "how long the first client request waits for the servers to start")
	watch := fs.Duration("watch", 2*time.Second, "check the config and pin state files for changes this often (0: only on SIGHUP)")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	logJSON := fs.Bool("log-json", false, "log as JSON lines (default: text)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: toolsearch-mcp serve --config FILE [--listen ADDR] [options]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return helpCode(err)
	}
	gateway.TuneGC()
	if *cfgPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "toolsearch-mcp serve: "+format+"\n", a...)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fail("--log-level: %v", err)
	}
	hopts := &slog.HandlerOptions{Level: level}
	var log *slog.Logger
	if *logJSON {
		log = slog.New(slog.NewJSONHandler(stderr, hopts))
	} else {
		log = slog.New(slog.NewTextHandler(stderr, hopts))
	}
	cfg, err := loadConfig(*cfgPath, *mode, *strategy, *callTimeout)
	if err != nil {
		return fail("%v", err)
	}
	var sf *gateway.StateFile
	if !*noPins {
		sf = &gateway.StateFile{Path: statePath(*cfgPath, *state, cfg)}
	}
	cfg.Options.HoldNewServers = cfg.Options.HoldNewServers || *holdNew
	var toks *gateway.Tokens
	if *tokens != "" {
		if *listen == "" {
			return fail("--tokens applies to --listen only: a stdio client is the process that started the gateway")
		}
		if toks, err = gateway.LoadTokens(*tokens); err != nil {
			return fail("%v", err)
		}
	}
	if *listen != "" && !gateway.LoopbackAddr(*listen) {
		if !*allowRemote {
			return fail("--listen %s is not a loopback address: add --allow-remote (with --tokens) to serve other machines", *listen)
		}
		if toks == nil {
			return fail("--allow-remote needs --tokens: the gateway does not serve other machines without authentication")
		}
	}
	metrics := gateway.NewMetrics()
	g, err := gateway.New(cfg, sf, gateway.Settings{
		Logger: log, Metrics: metrics, StartupWait: *startupWait, MaxResultBytes: *maxResult,
		RateLimit: *rate, RateBurst: *burst, MaxSessions: *maxSessions,
	})
	if err != nil {
		return fail("%v", err)
	}
	stateLog := "off"
	if sf != nil {
		stateLog = sf.Path
	}
	log.Info("starting", "config", *cfgPath, "servers", len(cfg.Names), "mode", cfg.Options.Mode, "pin_state", stateLog)
	g.Start()
	defer g.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	startReloader(ctx, g, log, *cfgPath, sf, *mode, *strategy, *callTimeout, *watch)

	if *listen == "" {
		if err := g.ServeStdio(ctx, stdin, stdout); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			log.Error("stdio session ended", "err", err)
			return 1
		}
		return 0
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail("%v", err)
	}
	srv := &http.Server{
		Handler: g.Handler(gateway.HTTPSettings{Tokens: toks, AllowOrigins: origins, MaxRequestBytes: *maxBody, SessionIdle: *idle}),
		// Headers are small; a client that trickles them is cut off.
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	log.Info("listening", "url", "http://"+ln.Addr().String()+"/mcp", "tokens", toks != nil)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("HTTP server failed", "err", err)
		return 1
	case <-ctx.Done():
	}
	shut, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	_ = srv.Shutdown(shut)
	return 0
}

// loadConfig reads and parses the config, the flags overriding its
// options.
func loadConfig(path, mode, strategy string, callTimeout time.Duration) (*gateway.Config, error) {
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	cfg, err := gateway.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if mode != "" {
		if err := cfg.Options.Mode.UnmarshalText([]byte(mode)); err != nil {
			return nil, fmt.Errorf("--mode: %w", err)
		}
	}
	if strategy != "" {
		cfg.Options.Strategy = strategy
	}
	if callTimeout > 0 {
		cfg.Options.CallTimeout = gateway.Duration(callTimeout)
	}
	return cfg, nil
}

// statePath is the pin state file: the flag's, the config's, or the
// config file's path with .pins.json appended.
func statePath(cfgPath, flagPath string, cfg *gateway.Config) string {
	switch {
	case flagPath != "":
		return flagPath
	case cfg != nil && cfg.Options.StateFile != "":
		return cfg.Options.StateFile
	}
	return cfgPath + ".pins.json"
}

// startReloader applies config changes (on SIGHUP, or when the file
// changed) and pin state changes (the approve command) until ctx ends, on a
// goroutine of its own. It takes SIGHUP and the files' stamps before it
// returns, not on that goroutine: a SIGHUP sent once the gateway says it
// listens must not end the process (the signal's default action), and a
// file written meanwhile must not be taken for the version already seen.
func startReloader(ctx context.Context, g *gateway.Gateway, log *slog.Logger, cfgPath string, sf *gateway.StateFile, mode, strategy string, callTimeout, every time.Duration) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	var tick <-chan time.Time
	stopTick := func() {}
	if every > 0 {
		t := time.NewTicker(every)
		tick, stopTick = t.C, t.Stop
	}
	cfgSeen := stamp(cfgPath)
	var stateSeen string
	if sf != nil {
		stateSeen = stamp(sf.Path)
	}
	reload := func(why string) {
		cfg, err := loadConfig(cfgPath, mode, strategy, callTimeout)
		if err != nil {
			log.Error("reload: config not applied, the running one is kept", "why", why, "err", err)
			return
		}
		g.Reload(cfg)
	}
	go func() {
		defer signal.Stop(hup)
		defer stopTick()
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				cfgSeen = stamp(cfgPath)
				reload("SIGHUP")
				if sf != nil {
					stateSeen = stamp(sf.Path)
					g.ReloadPins()
				}
			case <-tick:
				if s := stamp(cfgPath); s != cfgSeen {
					cfgSeen = s
					reload("the config file changed")
				}
				if sf != nil {
					if s := stamp(sf.Path); s != stateSeen {
						stateSeen = s
						g.ReloadPins()
					}
				}
			}
		}
	}()
}

// stamp identifies a file's version by its modification time and size.
func stamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d/%d", fi.ModTime().UnixNano(), fi.Size())
}
