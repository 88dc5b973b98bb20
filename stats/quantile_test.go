package stats

import "testing"

func TestQuantile(t *testing.T) {
	xs := []float64{4, 1, 3, 2, 5}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 2}, {0.5, 3}, {0.875, 4.5}, {1, 5}} {
		if got := Quantile(xs, c.q); got != c.want {
			t.Fatalf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if xs[0] != 4 {
		t.Fatal("Quantile modified its input")
	}
	if Quantile(nil, 0.5) != 0 || Quantile([]float64{7}, 0.3) != 7 {
		t.Fatal("edge cases")
	}
}
