-- the tables warboard made on PostgreSQL before its schema had versions (commit fccaa16's
-- Base.metadata.create_all, compiled for PostgreSQL): tests/test_schema.py
CREATE TABLE games (
	id VARCHAR(16) NOT NULL,
	game VARCHAR(32) NOT NULL,
	options JSON NOT NULL,
	mode VARCHAR(16) NOT NULL,
	seed BIGINT NOT NULL,
	status VARCHAR(16) NOT NULL,
	result JSON,
	created TIMESTAMP WITH TIME ZONE NOT NULL,
	updated TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (id)
);

CREATE INDEX games_status_updated ON games (status, updated);

CREATE TABLE seats (
	game_id VARCHAR(16) NOT NULL,
	seat INTEGER NOT NULL,
	kind VARCHAR(8) NOT NULL,
	ai_level VARCHAR(16),
	token_hash VARCHAR(64),
	joined BOOLEAN NOT NULL,
	PRIMARY KEY (game_id, seat),
	FOREIGN KEY(game_id) REFERENCES games (id),
	UNIQUE (token_hash)
);

CREATE TABLE events (
	game_id VARCHAR(16) NOT NULL,
	index INTEGER NOT NULL,
	seat INTEGER,
	action JSON NOT NULL,
	request_id VARCHAR(100),
	PRIMARY KEY (game_id, index),
	UNIQUE (game_id, request_id),
	FOREIGN KEY(game_id) REFERENCES games (id)
);
