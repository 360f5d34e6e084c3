package gateway

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/toolsearch/toolsearch"
)

// Metrics are the gateway's Prometheus metrics, in a registry of their own
// (with the Go and process collectors). A nil *Metrics records nothing.
type Metrics struct {
	reg       *prometheus.Registry
	searches  *prometheus.CounterVec
	searchDur prometheus.Histogram
	calls     *prometheus.CounterVec
	callDur   *prometheus.HistogramVec
	sessionsG prometheus.Gauge
	held      prometheus.Gauge
	up        *prometheus.GaugeVec
	refusals  *prometheus.CounterVec
}

// NewMetrics returns the metrics, registered.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		searches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolsearch_gateway_searches_total",
			Help: "ToolSearch calls answered, by outcome (ok, error)."}, []string{"outcome"}),
		searchDur: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "toolsearch_gateway_search_seconds",
			Help: "Time to answer a ToolSearch call.", Buckets: prometheus.ExponentialBuckets(0.00001, 4, 10)}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolsearch_gateway_calls_total",
			Help: "Tool calls, by upstream server and outcome (ok, tool_error, error, timeout, cancelled, too_large, refused: by the call guard, server empty)."},
			[]string{"server", "outcome"}),
		callDur: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "toolsearch_gateway_call_seconds",
			Help: "Time of a forwarded call, by upstream server.", Buckets: prometheus.ExponentialBuckets(0.0001, 4, 12)}, []string{"server"}),
		sessionsG: prometheus.NewGauge(prometheus.GaugeOpts{Name: "toolsearch_gateway_sessions",
			Help: "Client sessions served now."}),
		held: prometheus.NewGauge(prometheus.GaugeOpts{Name: "toolsearch_gateway_held_tools",
			Help: "Tools held back until approved (pinning)."}),
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "toolsearch_gateway_upstream_status",
			Help: "1 for the status each upstream server is in (connected, pending, disconnected), 0 for the others."},
			[]string{"server", "status"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolsearch_gateway_refused_requests_total",
			Help: "Requests refused before reaching a session's tools, by reason (rate, sessions, size, origin, auth)."}, []string{"reason"}),
	}
	m.reg.MustRegister(m.searches, m.searchDur, m.calls, m.callDur, m.sessionsG, m.held, m.up, m.refusals,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

func (m *Metrics) search(d time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.searches.WithLabelValues(outcome).Inc()
	m.searchDur.Observe(d.Seconds())
}

func (m *Metrics) call(server, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.calls.WithLabelValues(server, outcome).Inc()
	if server != "" {
		m.callDur.WithLabelValues(server).Observe(d.Seconds())
	}
}

func (m *Metrics) sessions(delta int) {
	if m != nil {
		m.sessionsG.Add(float64(delta))
	}
}

func (m *Metrics) heldTools(n int) {
	if m != nil {
		m.held.Set(float64(n))
	}
}

func (m *Metrics) upstream(server string, st toolsearch.ServerStatus) {
	if m == nil {
		return
	}
	for _, s := range []toolsearch.ServerStatus{toolsearch.ServerConnected, toolsearch.ServerPending, toolsearch.ServerDisconnected} {
		v := 0.0
		if s == st {
			v = 1
		}
		m.up.WithLabelValues(server, s.String()).Set(v)
	}
}

func (m *Metrics) refused(reason string) {
	if m != nil {
		m.refusals.WithLabelValues(reason).Inc()
	}
}
