-- A database written by the store before Alembic (schema version 3), as sqlite3's dump.
-- The rows: one table of three players with three events, a pending proposal, a hand
-- confirmation, a learned card and a claimed seat.
BEGIN TRANSACTION;
CREATE TABLE confirmations (
        table_id TEXT NOT NULL REFERENCES tables(id),
        hand_no INTEGER NOT NULL,
        player TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, hand_no, player)
    );
INSERT INTO "confirmations" VALUES('801bd2ed',1,'bob',1.79550749584452891353e+09);
CREATE TABLE deck_cards (
        table_id TEXT NOT NULL REFERENCES deck_profiles(table_id),
        code TEXT NOT NULL,
        model BLOB NOT NULL,
        source TEXT NOT NULL,
        learned_at REAL NOT NULL,
        PRIMARY KEY (table_id, code)
    );
INSERT INTO "deck_cards" VALUES('801bd2ed','7cl',X'00016D6F64656C','upload',1.79550749584503126143e+09);
CREATE TABLE deck_profiles (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        name TEXT NOT NULL,
        deck TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
INSERT INTO "deck_profiles" VALUES('801bd2ed','our deck','standard',1.79550749584503126143e+09);
CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        event_json TEXT NOT NULL,
        by TEXT NOT NULL,
        at REAL NOT NULL, action_id TEXT,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
INSERT INTO "events" VALUES('801bd2ed',1,'{"type":"new-hand","dealer":"ann","by":"keeper"}','keeper',1.79550749581222057337e+09,'legacy-act-1');
INSERT INTO "events" VALUES('801bd2ed',2,'{"type":"meld","player":"bob","cards":["7cl","7sp","7he"],"top":"7cl","by":"keeper"}','keeper',1.79550749582730650904e+09,NULL);
INSERT INTO "events" VALUES('801bd2ed',3,'{"type":"correction","target":"ann","points":15,"reason":"scored on paper","by":"keeper"}','keeper',1.79550749583099389077e+09,NULL);
CREATE TABLE proposals (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        resolved_seq INTEGER
    , action_id TEXT);
INSERT INTO "proposals" VALUES(1,'801bd2ed','cat','event','{"type": "correction", "target": "cat", "points": 5, "reason": "x"}','pending',1.79550749583834624292e+09,NULL,'legacy-prop-1');
CREATE TABLE seat_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        player TEXT NOT NULL,
        secret TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        token TEXT
    );
CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        position INTEGER NOT NULL,
        player TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        claimed_at REAL,
        PRIMARY KEY (table_id, player)
    );
INSERT INTO "seats" VALUES('801bd2ed',0,'ann','w1L90OBUAbDPOhBtGG8HMyD6',1.79550749584542775156e+09);
INSERT INTO "seats" VALUES('801bd2ed',1,'bob','bxOANoI1hcJoTIH9LxB7FeTD',NULL);
INSERT INTO "seats" VALUES('801bd2ed',2,'cat','CiYpTcDrkUSsvKgqkkkKel2V',NULL);
CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created_at REAL NOT NULL,
        setup_json TEXT NOT NULL,
        keeper_token TEXT NOT NULL UNIQUE,
        display_token TEXT NOT NULL UNIQUE,
        join_token TEXT NOT NULL,
        join_expires_at REAL NOT NULL,
        auto_accept INTEGER NOT NULL DEFAULT 0
    );
INSERT INTO "tables" VALUES('801bd2ed',1.79550749580045175555e+09,'{"game": "complex-toss-rummy", "players": ["ann", "bob", "cat"], "teams": {}, "colours": {"ann": "#e5383b", "bob": "#2f6fde", "cat": "#e0a800"}, "options": {"ruleset": "complex-toss-rummy", "ace": "both", "goal": null, "wild_scoring": false, "chips_per_points": 10, "decks": 1, "toss_joker": "shown", "double_cross_back": true, "double_cross_takes": "whole-play"}}','FtysAP4jiATod8PAO8PhBJjG','D-wOWtZAAHUhz5x6SN-yNFnK','G1J2K-vDouM8hyQHrp5SZylB',1.79555069580045175555e+09,0);
CREATE UNIQUE INDEX events_action ON events (table_id, action_id)
        WHERE action_id IS NOT NULL;
CREATE UNIQUE INDEX proposals_action ON proposals (table_id, action_id)
        WHERE action_id IS NOT NULL;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('proposals',1);
COMMIT;
PRAGMA user_version=3;
-- table 801bd2ed keeper FtysAP4jiATod8PAO8PhBJjG
