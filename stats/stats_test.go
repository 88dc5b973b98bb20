package stats

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	// Reference values from the closed form for p=0.5, n=100.
	lo, hi := Wilson(50, 100)
	if math.Abs(lo-0.4038) > 1e-3 || math.Abs(hi-0.5962) > 1e-3 {
		t.Fatalf("Wilson(50,100) = %.4f,%.4f", lo, hi)
	}
	lo, hi = Wilson(0, 10)
	if lo != 0 || hi < 0.27 || hi > 0.29 {
		t.Fatalf("Wilson(0,10) = %.4f,%.4f", lo, hi)
	}
}

func TestMeanMedian(t *testing.T) {
	xs := []float64{5, 1, 3, 2, 4}
	if m := Median(xs); m != 3 {
		t.Fatalf("median %v", m)
	}
	if xs[0] != 5 {
		t.Fatal("Median modified its input")
	}
	m, h := MeanCI([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(h-1.96*math.Sqrt(5.0/3/4)) > 1e-2 {
		t.Fatalf("MeanCI = %v ± %v", m, h)
	}
}
