package uhp

import (
	"strings"

	"github.com/hivebridge/hivebridge/core/engine"
)

// FormatOption writes an option's line as the options command lists it:
// "OptionName;OptionType;OptionValue;DefaultValue" followed, for int and
// double, by "MinValue;MaxValue" and, for enum, by the possible values.
func FormatOption(o *engine.Option) string {
	fields := []string{o.Name, string(o.Type), o.Value(), o.Default}
	switch o.Type {
	case engine.IntOption, engine.DoubleOption:
		fields = append(fields, o.Min, o.Max)
	case engine.EnumOption:
		fields = append(fields, o.Choices...)
	}
	return strings.Join(fields, ";")
}
