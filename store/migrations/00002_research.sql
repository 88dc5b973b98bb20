-- The research log: how an answer was made (an LLM seat's prompts, raw
-- responses, tokens and costs), as JSON text kept with the answer. Empty
-- for most answers.

-- +goose Up
ALTER TABLE entries ADD COLUMN research TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE entries DROP COLUMN research;
