package main

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// gopoly's messages are valid JSON (gopoly writes them), and a decide
// message carries far more than gobot reads: the whole state, the trade
// options, the events. encoding/json reads every byte of a message twice
// (once to check it, once to decode it), which costs more than all the
// rest of a decision, so gobot picks out the few values it reads and
// skips the others without decoding them. These helpers trust their
// input to be valid JSON; a bot that cannot should use encoding/json.

// members calls f with each key of the object obj (as written: gopoly's
// keys hold no escapes) and the raw JSON of its value, in order, until f
// returns false.
func members(obj []byte, f func(key, val []byte) bool) {
	i := space(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	for i++; ; i++ {
		i = space(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return
		}
		k := end(obj, i)
		key := obj[i+1 : k-1]
		i = space(obj, k)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = space(obj, i+1)
		v := end(obj, i)
		if !f(key, obj[i:v]) {
			return
		}
		if i = space(obj, v); i >= len(obj) || obj[i] != ',' {
			return
		}
	}
}

// member returns the raw JSON of key's value in the object obj, or nil.
func member(obj []byte, key string) []byte {
	var val []byte
	members(obj, func(k, v []byte) bool {
		if string(k) == key {
			val = v
			return false
		}
		return true
	})
	return val
}

// elements calls f with the raw JSON of each element of the array arr.
func elements(arr []byte, f func(val []byte)) {
	i := space(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	for {
		i = space(arr, i+1)
		if i >= len(arr) || arr[i] == ']' {
			return
		}
		v := end(arr, i)
		f(arr[i:v])
		if i = space(arr, v); i >= len(arr) || arr[i] != ',' {
			return
		}
	}
}

// text reads a JSON string ("" for anything else).
func text(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// integer reads a JSON number that is a whole number (0 for anything
// else).
func integer(raw []byte) int {
	n, _ := strconv.Atoi(string(raw))
	return n
}

func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// end returns the index just past the JSON value that begins at b[i].
func end(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return endString(b, i+1)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			c := b[i]
			if !structural[c] {
				continue
			}
			switch c {
			case '"':
				i = endString(b, i+1) - 1
			case '{', '[':
				depth++
			default: // '}', ']'
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for i < len(b) && !structural[b[i]] && b[i] != ',' && b[i] > ' ' { // a number, true, false or null
		i++
	}
	return i
}

// endString returns the index just past the string whose contents begin
// at b[i].
func endString(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' {
			return i + 1
		} else if c == '\\' {
			i++
		}
	}
	return len(b)
}

// structural marks the bytes that begin or end a string, object or array.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}
