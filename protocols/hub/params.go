package hub

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// This file holds engine parameters: the param line that declares one
// (Param: its types, reading, writing and the check of a value), and the
// conversion of parameters between the two protocols: the UHP options of a
// backend become the Hub parameters of the engine session (SettingOf), and
// the Hub parameters of an engine process become the UHP options that
// --engine-option sets (OptionOf).

// ParamType is the type of an engine parameter. Hub v2: "The allowed types
// are: type=bool, type=int min=... max=..., type=real min=... max=...,
// type=string, type=enum values="... ... ..."". A param line may have no
// type (the GUI "handles all engine parameters as strings"); a type this
// package does not know is kept, and its values are taken as strings.
type ParamType string

// The parameter types of Hub v2.
const (
	TypeBool   ParamType = "bool"
	TypeInt    ParamType = "int"
	TypeReal   ParamType = "real"
	TypeString ParamType = "string"
	TypeEnum   ParamType = "enum"
)

// The parameters hub-hive.md declares for hivebridge.
const (
	ParamVariant = "variant" // the game type of a pos without one
	ParamThreads = "threads"
	ParamHash    = "hash" // MiB
	ParamPonder  = "ponder"
	// ParamMultiPV is the number of best lines a search reports, each
	// in info lines of its own marked multipv=K (see InfoOf).
	ParamMultiPV = "multipv"
	// ParamEval is the native searcher's static evaluation: linear or
	// nnue.
	ParamEval = "eval"
)

// Param is a param line, the declaration of one engine parameter: its
// name, current value, type and the type's constraints. Min and Max are
// kept as written ("" for no bound), since the GUI deals in strings; Check
// reads them.
type Param struct {
	Name   string
	Value  string
	Type   ParamType
	Min    string
	Max    string
	Values []string // the choices of an enum
	Extra  []Arg
}

// BoolParam declares a bool parameter.
func BoolParam(name string, value bool) Param {
	return Param{Name: name, Value: strconv.FormatBool(value), Type: TypeBool}
}

// IntParam declares an int parameter with its bounds.
func IntParam(name string, value, minimum, maximum int) Param {
	return Param{Name: name, Value: strconv.Itoa(value), Type: TypeInt, Min: strconv.Itoa(minimum), Max: strconv.Itoa(maximum)}
}

// RealParam declares a real parameter with its bounds.
func RealParam(name string, value, minimum, maximum float64) Param {
	return Param{Name: name, Value: formatReal(value), Type: TypeReal, Min: formatReal(minimum), Max: formatReal(maximum)}
}

// StringParam declares a string parameter.
func StringParam(name, value string) Param {
	return Param{Name: name, Value: value, Type: TypeString}
}

// EnumParam declares an enum parameter and its choices, which are written
// separated by spaces and so cannot hold one.
func EnumParam(name, value string, values ...string) Param {
	return Param{Name: name, Value: value, Type: TypeEnum, Values: values}
}

// VariantParam declares hub-hive.md's variant parameter, the game type of
// positions that name none:
//
//	param name=variant value=Base type=enum values="Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP"
func VariantParam(value core.GameType) Param {
	return EnumParam(ParamVariant, value.Name(), VariantValues()...)
}

// VariantValues returns the eight GameTypeStrings in hub-hive.md's order:
// by number of expansions, then Mosquito, Ladybug, Pillbug.
func VariantValues() []string {
	var out []string
	for n := 0; n <= 3; n++ {
		for t := core.GameType(0); t < core.AllGameTypes; t++ {
			if bits.OnesCount8(uint8(t)) == n {
				out = append(out, t.Name())
			}
		}
	}
	return out
}

// Line writes the declaration: name, value, type, then the constraints.
func (p Param) Line() Line {
	args := []Arg{Pair("name", p.Name), Pair("value", p.Value)}
	if p.Type != "" {
		args = append(args, Pair("type", string(p.Type)))
	}
	if p.Min != "" {
		args = append(args, Pair("min", p.Min))
	}
	if p.Max != "" {
		args = append(args, Pair("max", p.Max))
	}
	if len(p.Values) > 0 {
		args = append(args, Pair("values", strings.Join(p.Values, " ")))
	}
	return NewLine(CmdParam, append(args, p.Extra...)...)
}

// ParseParam reads a param line. Name and value are required; the
// constraints must suit the type (int bounds are whole numbers, real bounds
// numbers, an enum has choices), and the value must satisfy them.
func ParseParam(l Line) (Param, error) {
	if err := expect(l, CmdParam); err != nil {
		return Param{}, err
	}
	var p Param
	var fields [6]string
	var has [6]bool
	for k, name := range [...]string{"name", "value", "type", "min", "max", "values"} {
		var err error
		if fields[k], has[k], err = single(l, name); err != nil {
			return Param{}, err
		}
	}
	p.Name, p.Value, p.Type, p.Min, p.Max = fields[0], fields[1], ParamType(fields[2]), fields[3], fields[4]
	if v := strings.Fields(fields[5]); len(v) > 0 {
		p.Values = v
	}
	if p.Name == "" {
		return Param{}, errors.New("param: name= is missing")
	}
	if !has[1] {
		return Param{}, fmt.Errorf("param %s: value= is missing", p.Name)
	}
	if err := p.checkBounds(); err != nil {
		return Param{}, err
	}
	if err := p.Check(p.Value); err != nil {
		return Param{}, err
	}
	p.Extra = extra(l, "name", "value", "type", "min", "max", "values")
	return p, nil
}

// checkBounds checks the syntax of the type's constraints.
func (p Param) checkBounds() error {
	switch p.Type {
	case TypeInt, TypeReal:
		for _, b := range [...]struct{ name, text string }{{"min", p.Min}, {"max", p.Max}} {
			if b.text == "" {
				continue
			}
			if _, err := p.compare(b.text, b.text); err != nil {
				return fmt.Errorf("param %s: %s: %w", p.Name, b.name, err)
			}
		}
		if p.Min != "" && p.Max != "" {
			if c, _ := p.compare(p.Min, p.Max); c > 0 {
				return fmt.Errorf("param %s: min %s is above max %s", p.Name, p.Min, p.Max)
			}
		}
	case TypeEnum:
		if len(p.Values) == 0 {
			return fmt.Errorf("param %s: type=enum needs values=\"...\", the choices", p.Name)
		}
	}
	return nil
}

// compare reads a and b as values of an int or real parameter and
// compares them: -1, 0 or +1. Whole numbers are compared as integers, so
// that bounds beyond 2^53 stay exact. The error names the first that is no
// number of the type.
func (p Param) compare(a, b string) (int, error) {
	if p.Type == TypeInt {
		var n [2]int64
		for k, s := range [...]string{a, b} {
			var err error
			if n[k], err = strconv.ParseInt(s, 10, 64); err != nil {
				return 0, fmt.Errorf("'%s' is not a whole number", s)
			}
		}
		return cmpOrder(n[0] < n[1], n[0] > n[1]), nil
	}
	x, err := parseReal(a)
	if err != nil {
		return 0, err
	}
	y, err := parseReal(b)
	if err != nil {
		return 0, err
	}
	return cmpOrder(x < y, x > y), nil
}

func cmpOrder(less, more bool) int {
	switch {
	case less:
		return -1
	case more:
		return 1
	}
	return 0
}

// Check reports whether value suits the parameter: true or false for a
// bool, a whole number for an int, a number for a real, within Min and Max
// when they are given, one of Values for an enum; any text for other types.
// An engine answers a set-param that fails with error message="...".
func (p Param) Check(value string) error {
	switch p.Type {
	case TypeBool:
		if value != "true" && value != "false" {
			return fmt.Errorf("parameter %s: '%s' is not true or false", p.Name, value)
		}
	case TypeInt, TypeReal:
		if _, err := p.compare(value, value); err != nil {
			return fmt.Errorf("parameter %s: %w", p.Name, err)
		}
		if c, err := p.compare(value, p.Min); err == nil && c < 0 {
			return fmt.Errorf("parameter %s: %s is below the minimum %s", p.Name, value, p.Min)
		}
		if c, err := p.compare(value, p.Max); err == nil && c > 0 {
			return fmt.Errorf("parameter %s: %s is above the maximum %s", p.Name, value, p.Max)
		}
	case TypeEnum:
		for _, c := range p.Values {
			if value == c {
				return nil
			}
		}
		return fmt.Errorf("parameter %s: '%s' is not one of %s", p.Name, value, strings.Join(p.Values, ", "))
	}
	return nil
}

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
	case "MultiPV":
		return ParamMultiPV
	case "Eval":
		return ParamEval
	}
	return uhpName
}

// SettingOf declares a UHP option as a Hub parameter, typed alike (UHP's
// double is Hub's real), so that the options a backend declares become the
// parameters a Hub GUI sets. The native searcher's Threads, HashMB,
// MultiPV and Eval take hub-hive.md's names, threads, hash, multipv and
// eval; other names are kept. It reports
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
