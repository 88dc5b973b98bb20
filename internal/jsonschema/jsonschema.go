// Package jsonschema checks JSON values against the JSON Schemas gopoly
// writes (the wire's answer schemas, the bot protocol's messages), for
// tests: it knows the keywords those schemas use and refuses any other,
// so that a schema cannot use one it would let pass unchecked.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Validate checks instance (as encoding/json decodes with UseNumber)
// against a JSON Schema, for the keywords gopoly's schemas use: type,
// const, enum, required, properties, additionalProperties, items,
// minItems, maxItems, uniqueItems, oneOf, anyOf, not, minimum, maximum,
// minLength, and $ref to "#/$defs/NAME". Annotations are ignored; any
// other keyword is an error, so that the schemas cannot use one this
// validator would let pass unchecked.
func Validate(schema, instance any) error {
	return validate(schema, schema, instance)
}

func validate(root, schema, instance any) error {
	switch s := schema.(type) {
	case bool:
		if !s {
			return fmt.Errorf("the false schema admits nothing")
		}
		return nil
	case map[string]any:
		return validateObject(root, s, instance)
	}
	return fmt.Errorf("a schema is an object or a boolean, not %T", schema)
}

func validateObject(root any, s map[string]any, inst any) error {
	for key, kw := range s {
		var err error
		switch key {
		case "$schema", "$id", "title", "description", "$defs":
		case "$ref":
			err = ref(root, kw, inst)
		case "type":
			err = checkType(kw, inst)
		case "const":
			if !jsonEqual(kw, inst) {
				err = fmt.Errorf("want %v", kw)
			}
		case "enum":
			ok := false
			for _, e := range kw.([]any) {
				ok = ok || jsonEqual(e, inst)
			}
			if !ok {
				err = fmt.Errorf("not one of %v", kw)
			}
		case "required":
			if m, ok := inst.(map[string]any); ok {
				for _, k := range kw.([]any) {
					if _, ok := m[k.(string)]; !ok {
						err = fmt.Errorf("%s is required", k)
					}
				}
			}
		case "properties":
			if m, ok := inst.(map[string]any); ok {
				for k, sub := range kw.(map[string]any) {
					if v, ok := m[k]; ok {
						if e := validate(root, sub, v); e != nil {
							err = fmt.Errorf("%s: %w", k, e)
						}
					}
				}
			}
		case "additionalProperties":
			if m, ok := inst.(map[string]any); ok {
				props, _ := s["properties"].(map[string]any)
				for k, v := range m {
					if _, ok := props[k]; ok {
						continue
					}
					if e := validate(root, kw, v); e != nil {
						err = fmt.Errorf("%s: not allowed: %w", k, e)
					}
				}
			}
		case "items":
			if l, ok := inst.([]any); ok {
				for i, v := range l {
					if e := validate(root, kw, v); e != nil {
						err = fmt.Errorf("[%d]: %w", i, e)
					}
				}
			}
		case "uniqueItems":
			if l, ok := inst.([]any); ok && kw == true {
				for i := range l {
					for j := range i {
						if jsonEqual(l[i], l[j]) {
							err = fmt.Errorf("items %d and %d are equal", j, i)
						}
					}
				}
			}
		case "oneOf", "anyOf":
			n := 0
			var errs []string
			for _, sub := range kw.([]any) {
				if e := validate(root, sub, inst); e == nil {
					n++
				} else {
					errs = append(errs, e.Error())
				}
			}
			if n == 0 || (key == "oneOf" && n > 1) {
				err = fmt.Errorf("%d of %s match (%s)", n, key, strings.Join(errs, "; "))
			}
		case "not":
			if validate(root, kw, inst) == nil {
				err = fmt.Errorf("matches a not")
			}
		case "minimum", "maximum":
			if n, ok := inst.(json.Number); ok {
				v, _ := n.Float64()
				b, _ := kw.(json.Number).Float64()
				if key == "minimum" && v < b || key == "maximum" && v > b {
					err = fmt.Errorf("%v is beyond the %s %v", n, key, b)
				}
			}
		case "minItems", "maxItems":
			if l, ok := inst.([]any); ok {
				b, _ := kw.(json.Number).Int64()
				if key == "minItems" && int64(len(l)) < b || key == "maxItems" && int64(len(l)) > b {
					err = fmt.Errorf("%d items, beyond the %s %d", len(l), key, b)
				}
			}
		case "minLength":
			if str, ok := inst.(string); ok {
				b, _ := kw.(json.Number).Int64()
				if int64(len([]rune(str))) < b {
					err = fmt.Errorf("shorter than %d", b)
				}
			}
		default:
			err = fmt.Errorf("validator does not know the keyword %q", key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func checkType(kw, inst any) error {
	var types []any
	if l, ok := kw.([]any); ok {
		types = l
	} else {
		types = []any{kw}
	}
	for _, t := range types {
		ok := false
		switch t {
		case "object":
			_, ok = inst.(map[string]any)
		case "array":
			_, ok = inst.([]any)
		case "string":
			_, ok = inst.(string)
		case "boolean":
			_, ok = inst.(bool)
		case "null":
			ok = inst == nil
		case "number":
			_, ok = inst.(json.Number)
		case "integer":
			if n, isNum := inst.(json.Number); isNum {
				f, err := strconv.ParseFloat(string(n), 64)
				ok = err == nil && f == float64(int64(f))
			}
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("want type %v, got %T", kw, inst)
}

func jsonEqual(a, b any) bool {
	na, oka := a.(json.Number)
	nb, okb := b.(json.Number)
	if oka && okb {
		fa, _ := na.Float64()
		fb, _ := nb.Float64()
		return fa == fb
	}
	return reflect.DeepEqual(a, b)
}

// ref follows a local reference, "#/$defs/NAME", from the root schema.
func ref(root, kw, inst any) error {
	name, ok := strings.CutPrefix(fmt.Sprint(kw), "#/$defs/")
	defs, _ := root.(map[string]any)["$defs"].(map[string]any)
	sub, found := defs[name]
	if !ok || !found {
		return fmt.Errorf("unresolved $ref %v", kw)
	}
	if err := validate(root, sub, inst); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
