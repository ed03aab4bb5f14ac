-- 001: the catalogue store (decisions §6).
-- Internal numeric ids for joins; publicId unique per table. Columns marked "never public"
-- are stored for authoring but no read query selects them (the projection is an allow-list).
-- Names, localities and publicIds use COLLATE "C": every ordering in the API is bytewise,
-- whatever the database's default collation.
-- Derived *_lower / *_folded / *_key columns are computed by the importer in JavaScript so that
-- both engines (PostgreSQL and PGlite) compare exactly the same strings.

CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;

CREATE TABLE media (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id         text COLLATE "C" NOT NULL UNIQUE,
  active            boolean NOT NULL DEFAULT true,
  status            text NOT NULL,                -- pending | ready | failed
  src               text,
  thumbnail_src     text,
  alt_text          text,
  width             bigint,
  height            bigint,
  original_filename text,                         -- never public
  upload_name       text,                         -- never public
  storage_key       text,                         -- never public
  blur_data_url     text,                         -- never public
  updated_at        timestamptz(6) NOT NULL,
  projection_hash   text NOT NULL,
  authoring         jsonb                         -- never public
);

CREATE TABLE artists (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id       text COLLATE "C" NOT NULL UNIQUE,
  active          boolean NOT NULL DEFAULT true,
  slug            text NOT NULL,
  name            text COLLATE "C" NOT NULL,
  name_lower      text NOT NULL,
  description     text,
  links           jsonb NOT NULL DEFAULT '[]',
  updated_at      timestamptz(6) NOT NULL,
  projection_hash text NOT NULL,
  authoring       jsonb
);

-- Legacy Artists may hold several profile media; the first ready one by (position, media publicId) is public.
CREATE TABLE artist_profile_media (
  artist_id bigint NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
  media_id  bigint NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  position  integer NOT NULL,
  PRIMARY KEY (artist_id, position)
);
CREATE INDEX artist_profile_media_media ON artist_profile_media (media_id);

CREATE TABLE venues (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id            text COLLATE "C" NOT NULL UNIQUE,
  active               boolean NOT NULL DEFAULT true,
  slug                 text NOT NULL,
  name                 text COLLATE "C" NOT NULL,
  name_lower           text NOT NULL,
  description          text,
  status_code          text NOT NULL,             -- operational | on-hiatus | permanently-closed
  capacity             bigint,
  contact_email        text,
  contact_phone        text,
  has_address          boolean NOT NULL DEFAULT false,
  formatted_address    text,
  locality             text COLLATE "C",
  locality_key         text,                      -- trim + lower-case of locality
  country_name         text COLLATE "C",
  country_name_lower   text,
  country_code         text,
  latitude             double precision,
  longitude            double precision,
  publish_coordinates  boolean NOT NULL DEFAULT false,
  address_provenance   jsonb,                     -- never public
  time_zone_suggestion text,                      -- never public
  profile_media_id     bigint REFERENCES media(id) ON DELETE SET NULL,
  links                jsonb NOT NULL DEFAULT '[]',
  updated_at           timestamptz(6) NOT NULL,
  projection_hash      text NOT NULL,
  authoring            jsonb
);

CREATE TABLE series (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id        text COLLATE "C" NOT NULL UNIQUE,
  active           boolean NOT NULL DEFAULT true,
  slug             text NOT NULL,
  name             text COLLATE "C" NOT NULL,
  name_lower       text NOT NULL,
  description      text,
  structure_code   text NOT NULL,                 -- direct | editioned
  profile_media_id bigint REFERENCES media(id) ON DELETE SET NULL,
  links            jsonb NOT NULL DEFAULT '[]',
  updated_at       timestamptz(6) NOT NULL,
  projection_hash  text NOT NULL,
  authoring        jsonb
);

CREATE TABLE editions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id        text COLLATE "C" NOT NULL UNIQUE,
  active           boolean NOT NULL DEFAULT true,
  series_id        bigint NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  slug             text NOT NULL,
  name             text COLLATE "C" NOT NULL,
  name_lower       text NOT NULL,
  start_local_date date NOT NULL,
  end_local_date   date,
  description      text,
  profile_media_id bigint REFERENCES media(id) ON DELETE SET NULL,
  links            jsonb NOT NULL DEFAULT '[]',
  updated_at       timestamptz(6) NOT NULL,
  projection_hash  text NOT NULL,
  authoring        jsonb
);
CREATE INDEX editions_series ON editions (series_id);

-- Official Venues of an Edition (they do not imply Event membership).
CREATE TABLE edition_venues (
  edition_id bigint NOT NULL REFERENCES editions(id) ON DELETE CASCADE,
  venue_id   bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  position   integer NOT NULL,
  PRIMARY KEY (edition_id, venue_id)
);
CREATE INDEX edition_venues_venue ON edition_venues (venue_id);

CREATE TABLE events (
  id                        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id                 text COLLATE "C" NOT NULL UNIQUE,
  active                    boolean NOT NULL DEFAULT true,
  slug                      text NOT NULL,
  name                      text COLLATE "C" NOT NULL,
  name_lower                text NOT NULL,       -- JS toLowerCase()
  name_folded               text NOT NULL,       -- NFKD, combining marks removed, lower-cased
  description               text,
  event_type_code           text,
  administrative_state_code text NOT NULL,       -- scheduled | cancelled
  time_zone                 text NOT NULL,       -- schedule.referenceTimeZoneId
  time_zone_known           boolean NOT NULL,    -- known to this database's time-zone data
  start_precision           text NOT NULL,       -- date | date-time
  start_local_date          date NOT NULL,
  start_local_time          text,                -- HH:MM
  start_instant             text,                -- as given (Z or offset)
  start_at                  timestamptz(6),      -- exact instant, date-time only
  end_precision             text,                -- null when the end is unknown
  end_local_date            date,
  end_local_time            text,
  end_instant               text,
  end_at                    timestamptz(6),
  -- sort keys: within a date, timed Events (rank 0) precede date-only Events (rank 1)
  start_rank                smallint GENERATED ALWAYS AS (CASE WHEN start_at IS NULL THEN 1 ELSE 0 END) STORED,
  start_key                 timestamptz(6) GENERATED ALWAYS AS (COALESCE(start_at, '-infinity'::timestamptz)) STORED,
  profile_media_id          bigint REFERENCES media(id) ON DELETE SET NULL,
  links                     jsonb NOT NULL DEFAULT '[]',
  ticket_links              jsonb NOT NULL DEFAULT '[]',
  digital_locations         jsonb NOT NULL DEFAULT '[]',
  updated_at                timestamptz(6) NOT NULL,
  projection_hash           text NOT NULL,
  authoring                 jsonb
);

CREATE TABLE event_artists (
  event_id  bigint NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  artist_id bigint NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
  position  integer NOT NULL,
  PRIMARY KEY (event_id, artist_id)
);
CREATE INDEX event_artists_artist ON event_artists (artist_id, event_id);

CREATE TABLE event_venues (
  event_id bigint NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (event_id, venue_id)
);
CREATE INDEX event_venues_venue ON event_venues (venue_id, event_id);

-- Direct Series membership.
CREATE TABLE event_series (
  event_id  bigint NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  series_id bigint NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  PRIMARY KEY (event_id, series_id)
);
CREATE INDEX event_series_series ON event_series (series_id, event_id);

-- Edition programs.
CREATE TABLE event_editions (
  event_id   bigint NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  edition_id bigint NOT NULL REFERENCES editions(id) ON DELETE CASCADE,
  PRIMARY KEY (event_id, edition_id)
);
CREATE INDEX event_editions_edition ON event_editions (edition_id, event_id);

-- Galleries: stored, never public.
CREATE TABLE event_gallery (
  event_id bigint NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  media_id bigint NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (event_id, position)
);

-- Read patterns of the Events collection: every sort with its publicId tie-break (active only).
CREATE INDEX events_by_start_date      ON events (start_local_date, start_rank, start_key, public_id) WHERE active;
CREATE INDEX events_by_start_date_desc ON events (start_local_date DESC, start_rank, start_key DESC, public_id) WHERE active;
CREATE INDEX events_by_start_at        ON events (start_at, public_id) WHERE active AND start_at IS NOT NULL;
CREATE INDEX events_by_start_at_desc   ON events (start_at DESC, public_id) WHERE active AND start_at IS NOT NULL;
CREATE INDEX events_by_updated_at      ON events (updated_at, public_id) WHERE active;
CREATE INDEX events_name_trgm          ON events USING gin (name_lower gin_trgm_ops) WHERE active;
CREATE INDEX events_name_folded_trgm   ON events USING gin (name_folded gin_trgm_ops) WHERE active;
CREATE INDEX events_profile_media      ON events (profile_media_id);

-- Read patterns of the Venues collection.
CREATE INDEX venues_by_name       ON venues (name, public_id) WHERE active;
CREATE INDEX venues_by_updated_at ON venues (updated_at, public_id) WHERE active;
CREATE INDEX venues_name_trgm     ON venues USING gin (name_lower gin_trgm_ops) WHERE active;
CREATE INDEX venues_locality_key  ON venues (locality_key) WHERE active;
CREATE INDEX venues_country_code  ON venues (country_code) WHERE active;

CREATE INDEX artists_by_name       ON artists (name, public_id) WHERE active;
CREATE INDEX artists_by_updated_at ON artists (updated_at, public_id) WHERE active;
CREATE INDEX artists_name_trgm     ON artists USING gin (name_lower gin_trgm_ops) WHERE active;
CREATE INDEX series_by_name        ON series (name, public_id) WHERE active;
CREATE INDEX series_by_updated_at  ON series (updated_at, public_id) WHERE active;
CREATE INDEX series_name_trgm      ON series USING gin (name_lower gin_trgm_ops) WHERE active;
