package hub_test

import (
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core/engine"
	"github.com/hivebridge/hivebridge/protocols/hub"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

func TestSettingOf(t *testing.T) {
	for _, tc := range []struct {
		opt  engine.Option
		want string
	}{
		{engine.Option{Name: "Threads", Type: engine.IntOption, Default: "1", Min: "1", Max: "64"}, "param name=threads value=1 type=int min=1 max=64"},
		{engine.Option{Name: "HashMB", Type: engine.IntOption, Default: "64", Min: "1", Max: "4096"}, "param name=hash value=64 type=int min=1 max=4096"},
		{engine.Option{Name: "MultiPV", Type: engine.IntOption, Default: "1", Min: "1", Max: "256"}, "param name=multipv value=1 type=int min=1 max=256"},
		{engine.Option{Name: "Eval", Type: engine.EnumOption, Default: "linear", Choices: []string{"linear", "nnue"}}, `param name=eval value=linear type=enum values="linear nnue"`},
		{engine.Option{Name: "RepetitionDraw", Type: engine.BoolOption, Default: "True"}, "param name=RepetitionDraw value=true type=bool"},
		{engine.Option{Name: "DefaultBestMoveTime", Type: engine.DoubleOption, Default: "5", Min: "0.01", Max: "86400"}, "param name=DefaultBestMoveTime value=5 type=real min=0.01 max=86400"},
		{engine.Option{Name: "Style", Type: engine.EnumOption, Default: "Calm", Choices: []string{"Calm", "Wild"}}, `param name=Style value=Calm type=enum values="Calm Wild"`},
	} {
		st, ok := hub.SettingOf(&tc.opt)
		if !ok || st.Param.Line().String() != tc.want {
			t.Errorf("SettingOf(%s) = %s, %v; want %s", tc.opt.Name, st.Param.Line(), ok, tc.want)
			continue
		}
		if err := st.Param.Check(st.Param.Value); err != nil {
			t.Errorf("%s: its own value fails: %v", tc.opt.Name, err)
		}
	}
	b := &engine.Option{Name: "B", Type: engine.BoolOption, Default: "False"}
	st, _ := hub.SettingOf(b)
	if err := st.Apply("true"); err != nil || b.Value() != "True" {
		t.Errorf("a Hub bool sets the UHP option to %q, %v", b.Value(), err)
	}
	if _, ok := hub.SettingOf(&engine.Option{Name: "E", Type: engine.EnumOption, Default: "a b", Choices: []string{"a b", "c"}}); ok {
		t.Errorf("an enum choice with a blank was declared")
	}
}

func TestOptionOf(t *testing.T) {
	var sent []string
	set := func(name, value string) error {
		sent = append(sent, name+"="+value)
		return nil
	}
	for _, tc := range []struct {
		param hub.Param
		want  string
	}{
		{hub.IntParam("threads", 2, 1, 8), "threads;int;2;2;1;8"},
		{hub.Param{Name: "n", Value: "5", Type: hub.TypeInt}, "n;int;5;5;-9223372036854775808;9223372036854775807"},
		{hub.BoolParam("book", true), "book;bool;True;True"},
		{hub.RealParam("contempt", 0.25, -1, 1), "contempt;double;0.25;0.25;-1;1"},
		{hub.Param{Name: "r", Value: "1", Type: hub.TypeReal, Min: "0"}, "r;double;1;1;0;1e308"},
		{hub.VariantParam(0), "variant;enum;Base;Base;Base;Base+M;Base+L;Base+P;Base+ML;Base+MP;Base+LP;Base+MLP"},
	} {
		o, ok := hub.OptionOf(tc.param, set)
		if !ok || uhp.FormatOption(o) != tc.want {
			t.Errorf("OptionOf(%s) = %v, %v; want %s", tc.param.Line(), o, ok, tc.want)
		}
	}
	book, _ := hub.OptionOf(hub.BoolParam("book", true), set)
	threads, _ := hub.OptionOf(hub.IntParam("threads", 2, 1, 8), set)
	contempt, _ := hub.OptionOf(hub.RealParam("contempt", 0, -1, 1), set)
	for _, step := range []struct {
		o *engine.Option
		v string
	}{{book, "FALSE"}, {threads, "8"}, {contempt, "-0.5"}} {
		if err := step.o.Set(step.v); err != nil {
			t.Errorf("%s=%s: %v", step.o.Name, step.v, err)
		}
	}
	if got := strings.Join(sent, " "); got != "book=false threads=8 contempt=-0.5" {
		t.Errorf("sent %s", got)
	}
	if err := threads.Set("9"); err == nil {
		t.Errorf("threads=9 was accepted")
	}
	for _, p := range []hub.Param{hub.StringParam("book-file", "x"), {Name: "c", Value: "red", Type: "colour"}, {Name: "u", Value: "1"}} {
		if _, ok := hub.OptionOf(p, set); ok {
			t.Errorf("OptionOf(%s) declared an option", p.Line())
		}
	}
}
