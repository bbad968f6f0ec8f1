package hub

import (
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core/engine"
)

// This file converts engine parameters between the two protocols: the UHP
// options of a backend become the Hub parameters of the engine session
// (SettingOf), and the Hub parameters of an engine process become the UHP
// options that --engine-option sets (OptionOf).

// Setting is a parameter of the searcher: its declaration, whose Value is
// kept current, and what applies a value set-param gives it.
type Setting struct {
	Param Param
	// Apply, if set, is called with each value that Param.Check accepts;
	// an error refuses the value.
	Apply func(value string) error
}

// hubName returns the Hub name of a UHP option: hub-hive.md's names for
// the options of hivebridge's native searcher, which UHP spells in its own
// way, and any other name as it is.
func hubName(uhpName string) string {
	switch uhpName {
	case "Threads":
		return ParamThreads
	case "HashMB":
		return ParamHash
	}
	return uhpName
}

// SettingOf declares a UHP option as a Hub parameter, typed alike (UHP's
// double is Hub's real), so that the options a backend declares become the
// parameters a Hub GUI sets. The native searcher's Threads and HashMB take
// hub-hive.md's names, threads and hash; other names are kept. It reports
// false for an option Hub cannot declare: an enum with a choice that holds
// a blank, which Hub's space-separated values cannot carry.
func SettingOf(o *engine.Option) (Setting, bool) {
	name := hubName(o.Name)
	p := Param{Name: name, Value: o.Value()}
	switch o.Type {
	case engine.BoolOption:
		p = BoolParam(name, strings.EqualFold(o.Value(), "true"))
	case engine.IntOption:
		p.Type, p.Min, p.Max = TypeInt, o.Min, o.Max
	case engine.DoubleOption:
		p.Type, p.Min, p.Max = TypeReal, o.Min, o.Max
	case engine.EnumOption:
		for _, c := range o.Choices {
			if strings.ContainsAny(c, " \t") || c == "" {
				return Setting{}, false
			}
		}
		p = EnumParam(name, o.Value(), o.Choices...)
	default:
		return Setting{}, false
	}
	return Setting{Param: p, Apply: o.Set}, true
}

// OptionOf declares a Hub parameter as a UHP option, typed alike, so that
// the parameters a Hub engine declares are set like any backend's options.
// A value the option is set to reaches set in Hub's spelling (a bool's true
// and false in lower case), checked by the declaration first. A bound the
// parameter leaves out is the widest its type has, since a UHP int or
// double option always has both. It reports false for a parameter UHP
// cannot declare: a string, or a type Hub v2 does not name.
func OptionOf(p Param, set func(name, value string) error) (*engine.Option, bool) {
	o := &engine.Option{Name: p.Name, Default: p.Value}
	switch p.Type {
	case TypeBool:
		o.Type = engine.BoolOption
		o.Default = "False"
		if p.Value == "true" {
			o.Default = "True"
		}
	case TypeInt:
		o.Type, o.Min, o.Max = engine.IntOption, or(p.Min, strconv.Itoa(minInt)), or(p.Max, strconv.Itoa(maxInt))
	case TypeReal:
		o.Type, o.Min, o.Max = engine.DoubleOption, or(p.Min, "-1e308"), or(p.Max, "1e308")
	case TypeEnum:
		o.Type, o.Choices = engine.EnumOption, p.Values
	default:
		return nil, false
	}
	o.Apply = func(v string) error {
		if o.Type == engine.BoolOption {
			v = strings.ToLower(v)
		}
		if err := p.Check(v); err != nil {
			return err
		}
		return set(p.Name, v)
	}
	return o, true
}

// The bounds of a UHP int option, which reads its values with strconv.Atoi.
const (
	maxInt = int(^uint(0) >> 1)
	minInt = -maxInt - 1
)

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
