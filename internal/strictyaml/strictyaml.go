// Package strictyaml decodes YAML documents into Go structs strictly:
// unknown keys and mistyped values are errors that name the file, the
// line and the key path, and the line of every key can be recorded for
// later validation messages.
//
// A document may hold at most MaxBytes, and a list decoded into a slice
// type with a MaxLen method at most that many items: both are refused
// before anything is built in proportion to them, so that a huge input
// fails fast rather than after eating time and memory.
package strictyaml

import (
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a YAML document: the file, the line and the key
// path (field) it concerns.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Pos is where a key was set.
type Pos struct {
	File string
	Line int
}

// Positions maps key paths ("board[3].price") to where they were set.
type Positions map[string]Pos

// Of returns where field, or the nearest enclosing key, was set; def when
// none was recorded. The document's top-level mapping is recorded as the
// key path "", so that a top-level key it lacks is placed there.
func (p Positions) Of(field string, def Pos) Pos {
	for f := field; ; {
		if q, ok := p[f]; ok {
			return q
		}
		if f == "" {
			return def
		}
		f = f[:max(strings.LastIndexAny(f, ".["), 0)]
	}
}

// Errorf returns an *Error about field at the line where it, or the
// nearest enclosing key, was set; in file, without a line, when none was.
func (p Positions) Errorf(file, field, format string, args ...any) error {
	q := p.Of(field, Pos{File: file})
	return &Error{File: q.File, Line: q.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// overlay records the keys of a later document, whose structs (merged)
// merge into the earlier ones: any other key set again replaces
// everything recorded under it.
func (p Positions) overlay(later Positions, merged map[string]bool) {
	for k := range p {
		for f := k; ; {
			if _, ok := later[f]; ok && (f == k || !merged[f]) {
				delete(p, k)
				break
			}
			i := strings.LastIndexAny(f, ".[")
			if i < 0 {
				break
			}
			f = f[:i]
		}
	}
	maps.Copy(p, later)
}

// MaxBytes is the most a document may hold: 1 MiB is over a hundred
// times the default rules, the largest document of the project, yet its
// YAML tree (some 64 times the text) is parsed in a fraction of a second.
const MaxBytes = 1 << 20

// tooLarge is the error for a document over MaxBytes.
func tooLarge(file string) error {
	return &Error{File: file, Msg: fmt.Sprintf("larger than %d bytes (1 MiB), the most a document may hold", MaxBytes)}
}

// ReadFile reads the named file for Decode. A file over MaxBytes is
// refused with an *Error after reading no more than MaxBytes+1 of it.
func ReadFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, tooLarge(name)
	}
	return data, nil
}

// A Limited type bounds the length of the lists decoded into it: a
// longer list is refused before any of its items is decoded.
type Limited interface {
	MaxLen() int
}

// Decode decodes the YAML document data into v (a pointer to a struct)
// strictly: every key must be named by v's yaml tags, every value of the
// right type. Only keys present in data are set, so decoding a second
// document over the first overlays it; lists and maps are replaced whole.
// pos, when not nil, records where each key path was set: the line of
// the key, or of the list item.
func Decode(file string, data []byte, v any, pos Positions) error {
	if len(data) > MaxBytes {
		return tooLarge(file)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return syntaxError(file, data, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil // empty document: nothing to override
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil
	}
	return DecodeNode(file, root, v, "", pos)
}

func syntaxError(file string, data []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line = n
				msg = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	switch {
	case strings.HasPrefix(msg, "did not find expected"):
		// yaml.v3 reports a parser error's line counting from 0 (only
		// scanner errors are moved to count from 1).
		line++
	case line == 0:
		// Reader errors carry no line: find the offending byte.
		line = badByteLine(data)
	}
	return &Error{File: file, Line: line, Msg: "invalid YAML: " + msg}
}

// badByteLine returns the line of the first control character or invalid
// UTF-8 in data, or 1.
func badByteLine(data []byte) int {
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			return line
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return 1
}

// DecodeNode decodes the node n, found at key path path, into v (a
// pointer) as Decode does.
func DecodeNode(file string, n *yaml.Node, v any, path string, pos Positions) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		panic("strictyaml: DecodeNode needs a pointer")
	}
	d := strictDecoder{file: file}
	if pos != nil {
		d.pos, d.merged = Positions{}, map[string]bool{}
		defer pos.overlay(d.pos, d.merged)
	}
	return d.decode(n, rv.Elem(), path)
}

type strictDecoder struct {
	file   string
	pos    Positions       // the keys set by this document
	merged map[string]bool // the keys of pos that are structs
}

func (d *strictDecoder) errf(n *yaml.Node, field, format string, args ...any) error {
	return &Error{File: d.file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (d *strictDecoder) record(path string, n *yaml.Node) {
	if d.pos != nil {
		d.pos[path] = Pos{File: d.file, Line: n.Line}
	}
}

func (d *strictDecoder) decode(n *yaml.Node, v reflect.Value, path string) error {
	return d.decodeAt(n, n, v, path)
}

// decodeAt decodes n as decode does, at being where the document set it:
// n's key in a mapping (a block list or mapping starts on the line after
// its key), or n itself (a list item, an alias where it is used).
func (d *strictDecoder) decodeAt(at, n *yaml.Node, v reflect.Value, path string) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	d.record(path, at)
	if v.Type() == reflect.TypeOf(yaml.Node{}) {
		v.Set(reflect.ValueOf(*n)) // kept raw, decoded by its owner
		return nil
	}
	if u, ok := v.Addr().Interface().(yaml.Unmarshaler); ok {
		if err := u.UnmarshalYAML(n); err != nil {
			return d.errf(n, path, "%v", err)
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return d.errf(n, path, "want a mapping, got %s", describe(n))
		}
		if d.merged != nil {
			d.merged[path] = true
		}
		fields := structFields(v.Type())
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			key := k.Value
			fp := joinPath(path, key)
			if seen[key] {
				return d.errf(k, fp, "duplicate key")
			}
			seen[key] = true
			idx, ok := fields[key]
			if !ok {
				return d.errf(k, fp, "unknown key %q (known: %s)", key, strings.Join(fieldNames(v.Type()), ", "))
			}
			if err := d.decodeAt(k, val, v.Field(idx), fp); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return d.errf(n, path, "want a list, got %s", describe(n))
		}
		if l, ok := v.Interface().(Limited); ok && len(n.Content) > l.MaxLen() {
			return d.errf(at, path, "at most %d items, got %d", l.MaxLen(), len(n.Content))
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			if err := d.decode(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return d.errf(n, path, "want a mapping, got %s", describe(n))
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			kv := reflect.New(v.Type().Key()).Elem()
			if err := d.decode(k, kv, path); err != nil {
				return err
			}
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := d.decodeAt(k, val, ev, joinPath(path, k.Value)); err != nil {
				return err
			}
			m.SetMapIndex(kv, ev)
		}
		v.Set(m)
		return nil
	case reflect.Pointer:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := d.decode(n, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Interface:
		var x any
		if err := n.Decode(&x); err != nil {
			return d.errf(n, path, "%v", err)
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return d.errf(n, path, "want a %s, got %s", kindName(v.Kind()), describe(n))
	}
	switch v.Kind() {
	case reflect.String:
		if n.Tag == "!!null" {
			return d.errf(n, path, "want a string, got null")
		}
		v.SetString(n.Value)
	case reflect.Bool:
		if n.Tag != "!!bool" {
			return d.errf(n, path, "want true or false, got %q", n.Value)
		}
		b, _ := strconv.ParseBool(n.Value)
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(n.Value, 0, 64)
		if n.Tag != "!!int" || err != nil || v.OverflowInt(i) {
			return d.errf(n, path, "want an integer, got %q", n.Value)
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		i, err := strconv.ParseUint(n.Value, 0, 64)
		if n.Tag != "!!int" || err != nil || v.OverflowUint(i) {
			return d.errf(n, path, "want a non-negative integer, got %q", n.Value)
		}
		v.SetUint(i)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(n.Value, 64)
		if (n.Tag != "!!float" && n.Tag != "!!int") || err != nil {
			return d.errf(n, path, "want a number, got %q", n.Value)
		}
		v.SetFloat(f)
	default:
		return d.errf(n, path, "unsupported field type %s", v.Type())
	}
	return nil
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "integer"
}

// structFields maps the yaml key of each exported field of t to its index.
func structFields(t reflect.Type) map[string]int {
	m := map[string]int{}
	for i, name := range keys(t) {
		if name != "" {
			m[name] = i
		}
	}
	return m
}

// fieldNames lists the yaml keys of t, for messages.
func fieldNames(t reflect.Type) []string {
	var names []string
	for _, name := range keys(t) {
		if name != "" {
			names = append(names, name)
		}
	}
	return names
}

// keys returns the yaml key of each field of t by index ("" for fields
// that are unexported or tagged "-").
func keys(t reflect.Type) []string {
	names := make([]string, t.NumField())
	for i := range names {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = strings.ToLower(f.Name)
		}
		names[i] = name
	}
	return names
}
