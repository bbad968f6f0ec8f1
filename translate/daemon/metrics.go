package daemon

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// metrics are the daemon's Prometheus series, in a registry of the
// server's own rather than the library's global one.
type metrics struct {
	registry       *prometheus.Registry
	sessions       *prometheus.GaugeVec
	commands       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	engineRestarts prometheus.Counter
	refused        *prometheus.CounterVec
	panics         *prometheus.CounterVec
	failedLogins   *prometheus.CounterVec
	acceptErrors   prometheus.Counter
	searches       *prometheus.CounterVec
	nodes          *prometheus.CounterVec
	depth          *prometheus.HistogramVec
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		sessions: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "hivebridge_sessions", Help: "Sessions open now.",
		}, []string{"protocol"}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_commands_total", Help: "Commands answered.",
		}, []string{"protocol", "command"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "hivebridge_command_duration_seconds",
			Help:    "Time to answer a command.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"protocol"}),
		engineRestarts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hivebridge_engine_restarts_total", Help: "Engine processes started again after a failure.",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_refusals_total", Help: "Connections or sessions refused or closed by a limit.",
		}, []string{"reason"}),
		panics: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_session_panics_total", Help: "Sessions ended by a panic in their code (each logged with its stack); the daemon goes on.",
		}, []string{"protocol"}),
		acceptErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hivebridge_accept_errors_total", Help: "Temporary failures to accept a connection (out of file descriptors, say), each waited out.",
		}),
		failedLogins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_failed_logins_total", Help: "Clients that presented no token or a bad one, by protocol.",
		}, []string{"protocol"}),
	}
	m.searches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hivebridge_searches_total", Help: "Searches asked of the backend, by backend kind and outcome.",
	}, []string{"backend", "outcome"})
	m.nodes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "hivebridge_search_nodes_total", Help: "Positions searched, as the backends reported them.",
	}, []string{"backend"})
	m.depth = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "hivebridge_search_depth_plies",
		Help:    "Depth of the last completed iteration of each search, where the backend reported one.",
		Buckets: prometheus.LinearBuckets(1, 1, 20),
	}, []string{"backend"})
	m.registry.MustRegister(m.sessions, m.commands, m.latency, m.engineRestarts, m.refused, m.panics, m.failedLogins, m.acceptErrors, m.searches, m.nodes, m.depth,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// metered counts the searches of a searcher in the metrics: each search,
// whether it answered, and the nodes and depth of its last report.
type metered struct {
	engine.Searcher
	backend string
	m       *metrics
}

func (s metered) BestMove(ctx context.Context, g *core.Game, limit engine.Limit, report func(engine.Progress)) (core.Move, error) {
	var last engine.Progress
	m, err := s.Searcher.BestMove(ctx, g, limit, func(p engine.Progress) {
		last = p
		if report != nil {
			report(p)
		}
	})
	outcome := "move"
	if err != nil {
		outcome = "error"
	}
	s.m.searches.WithLabelValues(s.backend, outcome).Inc()
	if last.Nodes > 0 {
		s.m.nodes.WithLabelValues(s.backend).Add(float64(last.Nodes))
	}
	if last.Depth > 0 {
		s.m.depth.WithLabelValues(s.backend).Observe(float64(last.Depth))
	}
	return m, err
}
