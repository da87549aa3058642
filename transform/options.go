package transform

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Options structs of steps describe each option with struct tags:
//
//	Width int    `opt:"width" doc:"target width in pixels; 0 keeps the aspect ratio"`
//	Fit   string `opt:"fit" values:"contain|cover|fill" doc:"how the image fits the box"`
//
// The zero value of every field is the default. Supported field types are
// string, bool, int, float64, []string, []int and map[string]string (items
// written "key:value"). A values tag limits a string or []string field to
// the listed words. An embedded struct without an opt tag contributes its
// options, so that a group of options shared by several steps (target,
// sourcemap and define of the esbuild steps; min-size and
// include-compressed of the compressors) is declared once.

// An OptionDoc describes one option of a step, for `bakefs steps`.
type OptionDoc struct {
	Key    string   // the name in the step language
	Type   string   // "string", "int", "list of int", …
	Values []string // allowed values, if limited
	Doc    string   // one line, states the default
}

// optionFields returns the tagged fields of an options struct type, those
// of embedded structs included (with Index the path from t).
func optionFields(t reflect.Type) []reflect.StructField {
	var fields []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch {
		case f.Tag.Get("opt") != "":
			fields = append(fields, f)
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			for _, inner := range optionFields(f.Type) {
				inner.Index = append([]int{i}, inner.Index...)
				fields = append(fields, inner)
			}
		}
	}
	return fields
}

func isList(t reflect.Type) bool {
	return t.Kind() == reflect.Slice || t.Kind() == reflect.Map
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "list of " + typeName(t.Elem())
	case reflect.Map:
		return "list of key:value"
	case reflect.Float64:
		return "number"
	}
	return t.Kind().String()
}

// documentOptions lists the options of an options struct type.
func documentOptions(t reflect.Type) []OptionDoc {
	var docs []OptionDoc
	for _, f := range optionFields(t) {
		d := OptionDoc{Key: f.Tag.Get("opt"), Type: typeName(f.Type), Doc: f.Tag.Get("doc")}
		if v := f.Tag.Get("values"); v != "" {
			d.Values = strings.Split(v, "|")
		}
		docs = append(docs, d)
	}
	return docs
}

// decodeOptions sets the fields of the struct that dst points to from the
// options of spec. Errors wrap ErrBadOption and name the step, option and
// column.
func decodeOptions(spec stepSpec, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	fields := make(map[string]reflect.StructField)
	var known []string
	for _, f := range optionFields(v.Type()) {
		fields[f.Tag.Get("opt")] = f
		known = append(known, f.Tag.Get("opt"))
	}
	seen := make(map[string]bool)
	for _, o := range spec.Options {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: step %q: column %d: option %q: %s", ErrBadOption, spec.Name, o.Column, o.Key, fmt.Sprintf(format, args...))
		}
		f, ok := fields[o.Key]
		if !ok {
			if len(known) == 0 {
				return bad("step %s takes no options", spec.Name)
			}
			return bad("unknown option (known: %s)", strings.Join(known, ", "))
		}
		if seen[o.Key] && !isList(f.Type) {
			return bad("given twice")
		}
		seen[o.Key] = true
		items := []string{o.Value}
		if isList(f.Type) && !o.Quoted {
			items = strings.Split(o.Value, "+")
		}
		for _, item := range items {
			if err := setOption(v.FieldByIndex(f.Index), f, item); err != nil {
				return bad("%v", err)
			}
		}
	}
	return nil
}

// setOption parses one item into a field; list fields get it appended.
func setOption(field reflect.Value, f reflect.StructField, item string) error {
	if allowed := f.Tag.Get("values"); allowed != "" {
		if !contains(strings.Split(allowed, "|"), item) {
			return fmt.Errorf("%q is not one of %s", item, strings.ReplaceAll(allowed, "|", ", "))
		}
	}
	switch field.Kind() {
	case reflect.String:
		field.SetString(item)
	case reflect.Bool:
		b, err := strconv.ParseBool(item)
		if err != nil {
			return fmt.Errorf("%q is not true or false", item)
		}
		field.SetBool(b)
	case reflect.Int:
		n, err := strconv.Atoi(item)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", item)
		}
		field.SetInt(int64(n))
	case reflect.Float64:
		x, err := strconv.ParseFloat(item, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", item)
		}
		field.SetFloat(x)
	case reflect.Slice:
		elem := reflect.New(field.Type().Elem()).Elem()
		if err := setOption(elem, reflect.StructField{}, item); err != nil {
			return err
		}
		field.Set(reflect.Append(field, elem))
	case reflect.Map:
		k, val, ok := strings.Cut(item, ":")
		if !ok || k == "" {
			return fmt.Errorf("%q is not key:value", item)
		}
		if field.IsNil() {
			field.Set(reflect.MakeMap(field.Type()))
		}
		field.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(val))
	default:
		return fmt.Errorf("unsupported option type %s", field.Type())
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// canonicalSpec formats decoded options in the step language with keys
// sorted, defaults left out and list items as repeated keys, so that two
// spellings of the same options give the same text (and cache key).
func canonicalSpec(name string, opts any) string {
	v := reflect.ValueOf(opts)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	spec := stepSpec{Name: name}
	if v.Kind() == reflect.Struct {
		for _, f := range optionFields(v.Type()) {
			key, fv := f.Tag.Get("opt"), v.FieldByIndex(f.Index)
			if fv.IsZero() {
				continue
			}
			for _, item := range optionItems(fv) {
				spec.Options = append(spec.Options, stepOption{Key: key, Value: item, Quoted: isList(f.Type) && strings.Contains(item, "+")})
			}
		}
	}
	sort.SliceStable(spec.Options, func(i, j int) bool { return spec.Options[i].Key < spec.Options[j].Key })
	return spec.String()
}

// optionItems formats a field's value as step-language items.
func optionItems(v reflect.Value) []string {
	switch v.Kind() {
	case reflect.Slice:
		var items []string
		for i := 0; i < v.Len(); i++ {
			items = append(items, optionItems(v.Index(i))...)
		}
		return items
	case reflect.Map:
		var items []string
		iter := v.MapRange()
		for iter.Next() {
			items = append(items, iter.Key().String()+":"+iter.Value().String())
		}
		sort.Strings(items)
		return items
	case reflect.Float64:
		return []string{strconv.FormatFloat(v.Float(), 'g', -1, 64)}
	}
	return []string{fmt.Sprint(v.Interface())}
}
