-- Origins are compared the way browsers send them: scheme and host lowercase, no default port
-- (`symbolon apps create` and `upsert_app` normalise new ones). Rewrite rows stored before that;
-- a row whose normal form already exists for the app is dropped as a duplicate.
INSERT INTO app_origins (app_id, origin)
SELECT DISTINCT app_id,
    CASE
        WHEN lower(origin) LIKE 'https://%:443' THEN substr(lower(origin), 1, length(origin) - 4)
        WHEN lower(origin) LIKE 'http://%:80' THEN substr(lower(origin), 1, length(origin) - 3)
        ELSE lower(origin)
    END
FROM app_origins
WHERE 1 = 1
ON CONFLICT DO NOTHING;

DELETE FROM app_origins
WHERE origin <> CASE
    WHEN lower(origin) LIKE 'https://%:443' THEN substr(lower(origin), 1, length(origin) - 4)
    WHEN lower(origin) LIKE 'http://%:80' THEN substr(lower(origin), 1, length(origin) - 3)
    ELSE lower(origin)
END;
