package main

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// medianOf is each figure's median over runs.
func medianOf(runs []measured) measured {
	return measured{
		wall:        medianBy(runs, func(m measured) time.Duration { return m.wall }),
		cpu:         medianBy(runs, func(m measured) time.Duration { return m.cpu }),
		providerCPU: medianBy(runs, func(m measured) time.Duration { return m.providerCPU }),
		benchCPU:    medianBy(runs, func(m measured) time.Duration { return m.benchCPU }),
		peakKB:      medianBy(runs, func(m measured) int { return m.peakKB }),
		conns:       medianBy(runs, func(m measured) int64 { return m.conns }),
		requests:    medianBy(runs, func(m measured) int64 { return m.requests }),
	}
}

// cell is wall time, then CPU time of Terraform and the provider, and the
// provider's part of it when there is one.
func (m measured) cell() string {
	if m.providerCPU == 0 {
		return fmt.Sprintf("%s; CPU %s", secs(m.wall), secs(m.cpu))
	}
	return fmt.Sprintf("%s; CPU %s (provider %s)", secs(m.wall), secs(m.cpu), secs(m.providerCPU))
}

// ratios compare wall time and CPU time.
func ratios(ours, ref measured) string {
	return fmt.Sprintf("%.2f; CPU %.2f", float64(ours.wall)/float64(ref.wall), float64(ours.cpu)/float64(ref.cpu))
}

// wallSpread is the plans' wall times from the least to the most.
func wallSpread(runs []measured) string {
	lo, hi := spreadBy(runs, func(m measured) time.Duration { return m.wall })
	return fmt.Sprintf("%.2f–%.2f s over %d plans", lo.Seconds(), hi.Seconds(), len(runs))
}

// perResourceSpread is the plans' provider CPU per resource (of n), from
// the least to the most.
func perResourceSpread(runs []measured, n int) string {
	lo, hi := spreadBy(runs, func(m measured) time.Duration { return m.providerCPU / time.Duration(n) })
	return fmt.Sprintf("(%.2f–%.2f ms over %d plans)", float64(lo)/float64(time.Millisecond), float64(hi)/float64(time.Millisecond), len(runs))
}

// spreadBy is the least and the most of f over runs.
func spreadBy[T cmp.Ordered](runs []measured, f func(measured) T) (lo, hi T) {
	for i, m := range runs {
		v := f(m)
		if i == 0 || v < lo {
			lo = v
		}
		if i == 0 || v > hi {
			hi = v
		}
	}
	return lo, hi
}

func median(ds []time.Duration) time.Duration {
	return medianBy(ds, func(d time.Duration) time.Duration { return d })
}

// medianBy is the median of f over xs (the upper one of an even count).
func medianBy[X any, T cmp.Ordered](xs []X, f func(X) T) T {
	vs := make([]T, len(xs))
	for i, x := range xs {
		vs[i] = f(x)
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func millis(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

func ratio(a, b time.Duration) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(a)/float64(b))
}
