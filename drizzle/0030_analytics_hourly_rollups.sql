CREATE TABLE "metric_rollups_hourly" (
	"account_id" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"posts" integer NOT NULL,
	"engagement" bigint,
	"impressions" bigint,
	"reach" bigint,
	"views" bigint,
	"likes" bigint,
	"comments" bigint,
	"reposts" bigint,
	"quotes" bigint,
	"shares" bigint,
	"saves" bigint,
	"clicks" bigint,
	CONSTRAINT "metric_rollups_hourly_account_id_bucket_pk" PRIMARY KEY("account_id","bucket")
);
--> statement-breakpoint
-- Backfill: the hours of the quarter hours collection and publishing have kept so far.
INSERT INTO "metric_rollups_hourly" ("account_id", "bucket", "posts", "engagement", "impressions", "reach", "views", "likes", "comments", "reposts", "quotes", "shares", "saves", "clicks")
SELECT "account_id", to_timestamp(floor(extract(epoch FROM "bucket") / 3600) * 3600), sum("posts")::int, sum("engagement"), sum("impressions"), sum("reach"), sum("views"), sum("likes"), sum("comments"), sum("reposts"), sum("quotes"), sum("shares"), sum("saves"), sum("clicks")
FROM "metric_rollups" GROUP BY 1, 2;
