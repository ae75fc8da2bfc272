-- PostgreSQL session settings that clients set on connect, with
-- PostgreSQL's answers.
\set VERBOSITY verbose
SHOW extra_float_digits;
SET extra_float_digits = 3;
SHOW extra_float_digits;
SET application_name = 'regress app';
SHOW application_name;
SET client_encoding TO 'UTF8';
SET client_encoding = 'LATIN1';
SET DateStyle = 'ISO, DMY';
SHOW DateStyle;
SET DateStyle = 'German';
SET statement_timeout = '5s';
SHOW statement_timeout;
-- statement_timeout cancels statements that run longer (57014)
SET statement_timeout = 200;
SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1;
SELECT 'still usable' AS status;
SET statement_timeout = 0;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SHOW TRANSACTION ISOLATION LEVEL;
SET search_path TO public;
SHOW search_path;
SET server_version = '99';
SHOW server_version_num;
SHOW max_identifier_length;
SET bytea_output = 'escape';
-- TimeZone: timestamptz values are shown in the session's zone
SELECT TIMESTAMPTZ '2024-06-01 12:00:00+00' AS t;
SET TIME ZONE 'Asia/Kolkata';
SHOW TimeZone;
SELECT TIMESTAMPTZ '2024-06-01 12:00:00+00' AS t;
SET TimeZone = 'Not/AZone';
-- RESET, RESET ALL and DISCARD ALL go back to the defaults
RESET extra_float_digits;
SHOW extra_float_digits;
RESET ALL;
SHOW TimeZone;
SHOW DateStyle;
SHOW application_name;
SET application_name = 'again';
DISCARD ALL;
SHOW application_name;
