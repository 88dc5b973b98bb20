package agent

import (
	"strings"
	"testing"
)

// RefusePrograms makes Lookup refuse the names of Program schemes, and
// only those, saying why; "" allows them again.
func TestRefusePrograms(t *testing.T) {
	RegisterScheme("test-program", Scheme{Program: true, Resolve: func(string) (Bot, error) { return Lookup("baseline") }})
	RegisterScheme("test-plain", Scheme{Resolve: func(string) (Bot, error) { return Lookup("baseline") }})
	RefusePrograms("pass --allow-programs")
	defer RefusePrograms("")
	if _, err := Lookup("test-program:x"); err == nil || !strings.Contains(err.Error(), "--allow-programs") {
		t.Errorf("a program while refused: %v", err)
	}
	if _, err := Lookup("test-plain:x"); err != nil {
		t.Errorf("a plain scheme while programs are refused: %v", err)
	}
	RefusePrograms("")
	if _, err := Lookup("test-program:x"); err != nil {
		t.Errorf("a program once allowed again: %v", err)
	}
}
