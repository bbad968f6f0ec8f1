package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// OptionType is the type of an engine option: one of the four types UHP
// declares, which the other protocols' parameter types map onto.
type OptionType string

// The option types.
const (
	BoolOption   OptionType = "bool"
	IntOption    OptionType = "int"
	DoubleOption OptionType = "double"
	EnumOption   OptionType = "enum"
)

// Option is a setting of an engine (Threads, HashMB, ...): its type, its
// default, its range or choices, and its current value. Each protocol
// lists and sets options in its own words; the checks are the same for all.
type Option struct {
	Name    string
	Type    OptionType
	Default string
	Min     string   // int and double only
	Max     string   // int and double only
	Choices []string // enum only
	// Apply, if set, is called with every new value once it has been
	// checked against the type and range; an error refuses the value.
	Apply func(value string) error

	value string
}

// Value returns the option's current value.
func (o *Option) Value() string {
	if o.value == "" {
		return o.Default
	}
	return o.value
}

// Declare records value as the option's current value without checking or
// applying it: what another engine says its option is set to.
func (o *Option) Declare(value string) { o.value = value }

// Set checks v against the option's type and range, normalises it (True
// and False for bools, whatever the case it was written in; the declared
// spelling for enums) and applies it.
func (o *Option) Set(v string) error {
	norm, err := o.normalize(v)
	if err != nil {
		return err
	}
	if o.Apply != nil {
		if err := o.Apply(norm); err != nil {
			return err
		}
	}
	o.value = norm
	return nil
}

func (o *Option) normalize(v string) (string, error) {
	switch o.Type {
	case BoolOption:
		switch {
		case EqualFold(v, "true"):
			return "True", nil
		case EqualFold(v, "false"):
			return "False", nil
		}
		return "", fmt.Errorf("option %s takes True or False, not %q", o.Name, v)
	case IntOption:
		n, err := strconv.Atoi(v)
		lo, _ := strconv.Atoi(o.Min)
		hi, _ := strconv.Atoi(o.Max)
		if err != nil || n < lo || n > hi {
			return "", fmt.Errorf("option %s takes a whole number from %s to %s, not %q", o.Name, o.Min, o.Max, v)
		}
		return strconv.Itoa(n), nil
	case DoubleOption:
		x, err := strconv.ParseFloat(v, 64)
		lo, _ := strconv.ParseFloat(o.Min, 64)
		hi, _ := strconv.ParseFloat(o.Max, 64)
		if err != nil || x < lo || x > hi || x != x {
			return "", fmt.Errorf("option %s takes a number from %s to %s, not %q", o.Name, o.Min, o.Max, v)
		}
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case EnumOption:
		for _, c := range o.Choices {
			if EqualFold(c, v) {
				return c, nil
			}
		}
		return "", fmt.Errorf("option %s takes one of %s, not %q", o.Name, strings.Join(o.Choices, ", "), v)
	}
	return "", fmt.Errorf("option %s has an unknown type %q", o.Name, o.Type)
}

// EqualFold compares two strings ignoring the case of ASCII letters only:
// the protocols are ASCII, and Unicode folding would let "Baſe" pass for
// "Base" or "falſe" for "false". It is core's, which reads the notation's
// names with it.
func EqualFold(a, b string) bool { return core.EqualFold(a, b) }
