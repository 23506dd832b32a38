-- What a host app's back end stores about a user (`POST /v1/users/{id}/custom_metadata`, issue 23):
-- a JSON object of at most 1 KB, shown in the user and the identity token; NULL when never set.
ALTER TABLE users ADD COLUMN custom_metadata TEXT;
