package wire

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// value is a parsed JSON value. Decoding goes through this tree rather
// than into structs so that every error can name its field, duplicate
// keys and trailing data are refused, and a key's type is checked against
// the action table before anything is read from it. The parser is our
// own, a tenth of the cost of encoding/json's tokenizer; FuzzParseJSON
// holds it to encoding/json on every input.
type value struct {
	kind   valueKind
	str    string // string; number: its literal
	truth  bool
	fields []field // object, in order
	elems  []value // array
}

type field struct {
	key string
	val value
}

type valueKind uint8

const (
	jsonNull valueKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

var valueKindNames = [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}

// String names the kind for error messages, with its article.
func (k valueKind) String() string { return valueKindNames[k] }

// maxDepth bounds nesting: the deepest answer is five levels
// (answer.action.offer.give.squares), and a bound keeps hostile input
// from costing stack.
const maxDepth = 8

// errDepth refuses valid JSON nested deeper than maxDepth.
var errDepth = errors.New("nested too deeply")

type jsonParser struct {
	data []byte
	pos  int
}

// parseJSON reads exactly one JSON value from data.
func parseJSON(data []byte) (value, error) {
	p := jsonParser{data: data}
	p.space()
	if p.pos == len(p.data) {
		return value{}, errors.New("unexpected end of input")
	}
	v, err := p.value(0)
	if err != nil {
		return value{}, err
	}
	p.space()
	if p.pos != len(p.data) {
		return value{}, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) bad() error {
	if p.pos >= len(p.data) {
		return errors.New("unexpected end of input")
	}
	c := p.data[p.pos]
	if c >= 0x20 && c < 0x7f {
		return fmt.Errorf("not valid JSON: unexpected %q at offset %d", c, p.pos)
	}
	return fmt.Errorf("not valid JSON: unexpected byte 0x%02x at offset %d", c, p.pos)
}

// expect consumes c after optional space.
func (p *jsonParser) expect(c byte) error {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return nil
	}
	return p.bad()
}

func (p *jsonParser) value(depth int) (value, error) {
	p.space()
	if p.pos >= len(p.data) {
		return value{}, p.bad()
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return value{}, errDepth
		}
		p.pos++
		if c == '[' {
			return p.array(depth)
		}
		return p.object(depth)
	case c == '"':
		s, err := p.string()
		return value{kind: jsonString, str: s}, err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
			p.pos += len(lit)
			switch lit[0] {
			case 't':
				return value{kind: jsonBool, truth: true}, nil
			case 'f':
				return value{kind: jsonBool}, nil
			}
			return value{kind: jsonNull}, nil
		}
	}
	return value{}, p.bad()
}

// members reads the comma-separated members of an array or an object,
// each by member, up to and including the closing bracket end.
func (p *jsonParser) members(end byte, member func() error) error {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == end {
		p.pos++
		return nil
	}
	for {
		if err := member(); err != nil {
			return err
		}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == end {
			p.pos++
			return nil
		}
		if err := p.expect(','); err != nil {
			return err
		}
	}
}

func (p *jsonParser) array(depth int) (value, error) {
	v := value{kind: jsonArray}
	err := p.members(']', func() error {
		e, err := p.value(depth + 1)
		v.elems = append(v.elems, e)
		return err
	})
	if err != nil {
		return value{}, err
	}
	return v, nil
}

func (p *jsonParser) object(depth int) (value, error) {
	v := value{kind: jsonObject}
	err := p.members('}', func() error {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.bad()
		}
		key, err := p.string()
		if err != nil {
			return err
		}
		for _, f := range v.fields {
			if f.key == key {
				return errors.New("duplicate key " + strconv.Quote(key))
			}
		}
		if err := p.expect(':'); err != nil {
			return err
		}
		e, err := p.value(depth + 1)
		v.fields = append(v.fields, field{key, e})
		return err
	})
	if err != nil {
		return value{}, err
	}
	return v, nil
}

// string reads a string at the opening quote. Like encoding/json, it
// reads invalid UTF-8 and unpaired surrogates as U+FFFD.
func (p *jsonParser) string() (string, error) {
	p.pos++
	start := p.pos
	for p.pos < len(p.data) { // the common case: nothing to unescape
		c := p.data[p.pos]
		if c == '"' {
			s := string(p.data[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.pos++
	}
	b := []byte(nil)
	b = append(b, p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(b), nil
		case c < 0x20:
			return "", p.bad()
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				p.pos++
				return "", p.bad()
			}
			p.pos++
			switch e := p.data[p.pos]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4(p.pos + 1)
				if !ok {
					return "", p.bad()
				}
				p.pos += 4
				if utf16.IsSurrogate(r) {
					if r2, ok := p.hex4(p.pos + 3); ok && p.pos+2 < len(p.data) && p.data[p.pos+1] == '\\' && p.data[p.pos+2] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							b = utf8.AppendRune(b, d)
							p.pos += 7
							continue
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", p.bad()
			}
			p.pos++
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			b = utf8.AppendRune(b, r) // RuneError for an invalid byte
			p.pos += size
		}
	}
	return "", errors.New("unexpected end of input")
}

// hex4 reads the four hex digits of a \u escape at i.
func (p *jsonParser) hex4(i int) (rune, bool) {
	if i+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? and keeps
// its literal.
func (p *jsonParser) number() (value, error) {
	start := p.pos
	digits := func() bool {
		n := p.pos
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
		}
		return p.pos > n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if !digits() {
		return value{}, p.bad()
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if !digits() {
			return value{}, p.bad()
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if !digits() {
			return value{}, p.bad()
		}
	}
	return value{kind: jsonNumber, str: string(p.data[start:p.pos])}, nil
}

// get returns the field named key of an object.
func (v *value) get(key string) (*value, bool) {
	for i := range v.fields {
		if v.fields[i].key == key {
			return &v.fields[i].val, true
		}
	}
	return nil, false
}

// integer reads a number that is a whole number written without fraction
// or exponent, within int64.
func (v *value) integer() (int64, bool) {
	if v.kind != jsonNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(v.str, 10, 64)
	return n, err == nil
}
