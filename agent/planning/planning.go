// Package planning holds the look-ahead players: planning, which forks the
// game and scores candidate actions by rollouts, and adaptive, which plans
// only where a decision matters.
package planning
