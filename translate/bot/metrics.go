package bot

import (
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the bot's Prometheus series, each labelled with the account
// it is about, registered on the registry the caller passes (New).
type metrics struct {
	gamesStarted *prometheus.CounterVec
	gamesEnded   *prometheus.CounterVec
	playing      *prometheus.GaugeVec
	moves        *prometheus.CounterVec
	errors       *prometheus.CounterVec
	challenges   *prometheus.CounterVec
	timeGiven    *prometheus.CounterVec
	timeUsed     *prometheus.CounterVec
	timeRatio    *prometheus.HistogramVec
	overhead     *prometheus.HistogramVec
	api          *prometheus.HistogramVec
	restarts     *prometheus.CounterVec
}

// The kinds of error the bot counts (hivebridge_bot_errors_total's kind).
const (
	errAPI          = "api"           // a request the site answered with a failure
	errAPITransient = "api_temporary" // 429 or 5xx: waited out
	errAuth         = "auth"          // the credentials refused
	errNetwork      = "network"       // no answer: a timeout, a broken connection
	errRefused      = "move_refused"  // the site refused a move
	errLost         = "answer_lost"   // a move posted with no answer, checked against the site
	errEngine       = "engine"        // the backend failed or missed its deadline
	errHistory      = "history"       // a game's history the rules cannot replay
	errStuck        = "stuck"         // no move to post (only a pass, or every move refused)
)

func newMetrics(reg prometheus.Registerer) *metrics {
	account := []string{"account"}
	m := &metrics{
		gamesStarted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_games_started_total", Help: "Games the bot took up: accepted, from its own challenges, or found going on at start.",
		}, account),
		gamesEnded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_games_ended_total", Help: "Games over, by the bot's result: win, loss, draw, aborted or unknown.",
		}, []string{"account", "result"}),
		playing: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "hivebridge_bot_games_playing", Help: "Games the bot plays now.",
		}, account),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_moves_total", Help: "Moves the site took, by who chose them: the backend, or the native searcher's quick move when the backend failed (fallback).",
		}, []string{"account", "by"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_errors_total", Help: "Failures, by kind: api, api_temporary, auth, network, move_refused, answer_lost, engine, history, stuck.",
		}, []string{"account", "kind"}),
		challenges: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_challenges_total", Help: "Challenges accepted, refused by the policy (counted once each) and issued.",
		}, []string{"account", "action"}),
		timeGiven: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_move_time_given_seconds_total", Help: "The time each move was given by its clock (or by move_time).",
		}, account),
		timeUsed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_move_time_used_seconds_total", Help: "The time each move took, from seeing the turn to the site taking the move.",
		}, account),
		timeRatio: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hivebridge_bot_move_time_used_ratio", Help: "Each move's time used over its time given.",
			Buckets: []float64{0.1, 0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.5, 2},
		}, account),
		overhead: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hivebridge_bot_move_overhead_seconds", Help: "Each move's time besides the engine's thinking: reading the game, posting the move, checking it.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}, account),
		api: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hivebridge_bot_api_request_duration_seconds", Help: "Requests to the site, by endpoint.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 10),
		}, []string{"account", "op"}),
		restarts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hivebridge_bot_engine_restarts_total", Help: "Engines given up after a failure or a missed deadline, to be started afresh at the game's next turn, and engine processes their backend started again by itself.",
		}, account),
	}
	reg.MustRegister(m.gamesStarted, m.gamesEnded, m.playing, m.moves, m.errors, m.challenges,
		m.timeGiven, m.timeUsed, m.timeRatio, m.overhead, m.api, m.restarts)
	return m
}
