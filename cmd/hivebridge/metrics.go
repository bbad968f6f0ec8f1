package main

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
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
	}
	m.registry.MustRegister(m.sessions, m.commands, m.latency, m.engineRestarts, m.refused,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
