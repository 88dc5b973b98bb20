// Package jsonerr places encoding/json's errors in the document they
// came from, for messages that name a line and column and say what was
// wanted.
package jsonerr

import (
	"bytes"
	"reflect"
)

// Pos returns the line and column (from 1) of the byte before offset in
// data: where encoding/json, which counts the bytes it has read, stopped.
// An offset past the data is taken as its end.
func Pos(data []byte, offset int64) (line, col int) {
	i := int(min(max(offset-1, 0), int64(len(data))))
	line = 1 + bytes.Count(data[:i], []byte("\n"))
	return line, i - bytes.LastIndexByte(data[:i], '\n')
}

// Want says what JSON value a Go value of type t reads.
func Want(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a number"
}
