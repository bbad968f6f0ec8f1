package uhp

import (
	"fmt"
	"strconv"
	"strings"
)

// OptionType is one of the four option types of the spec: "bool", "int",
// "double" or "enum".
type OptionType string

// The option types.
const (
	BoolOption   OptionType = "bool"
	IntOption    OptionType = "int"
	DoubleOption OptionType = "double"
	EnumOption   OptionType = "enum"
)

// Option is an engine option as the options command lists it:
// "OptionName;OptionType;OptionValue;DefaultValue" followed, for int and
// double, by "MinValue;MaxValue" and, for enum, by the possible values.
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

// String writes the option's line.
func (o *Option) String() string {
	fields := []string{o.Name, string(o.Type), o.Value(), o.Default}
	switch o.Type {
	case IntOption, DoubleOption:
		fields = append(fields, o.Min, o.Max)
	case EnumOption:
		fields = append(fields, o.Choices...)
	}
	return strings.Join(fields, ";")
}

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
		switch lowerASCII(v) {
		case "true":
			return "True", nil
		case "false":
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
			if equalFold(c, v) {
				return c, nil
			}
		}
		return "", fmt.Errorf("option %s takes one of %s, not %q", o.Name, strings.Join(o.Choices, ", "), v)
	}
	return "", fmt.Errorf("option %s has an unknown type %q", o.Name, o.Type)
}
