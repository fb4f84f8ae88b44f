CREATE TABLE "account_metric_schedule" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"next_collect_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "account_metrics" (
	"account_id" uuid NOT NULL,
	"day" text NOT NULL,
	"followers" integer,
	"collected_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_metrics_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "metric_rollups" (
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
	CONSTRAINT "metric_rollups_account_id_bucket_pk" PRIMARY KEY("account_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "metric_snapshots" (
	"post_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"metrics" jsonb NOT NULL,
	CONSTRAINT "metric_snapshots_post_id_account_id_collected_at_pk" PRIMARY KEY("post_id","account_id","collected_at")
);
--> statement-breakpoint
CREATE TABLE "target_metrics" (
	"post_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"platform" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'collecting' NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"next_collect_at" timestamp with time zone,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"engagement" integer,
	"impressions" integer,
	"collected_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	CONSTRAINT "target_metrics_post_id_account_id_pk" PRIMARY KEY("post_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "account_metric_schedule" ADD CONSTRAINT "account_metric_schedule_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_metrics" ADD CONSTRAINT "account_metrics_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metric_snapshots" ADD CONSTRAINT "metric_snapshots_post_id_account_id_target_metrics_post_id_account_id_fk" FOREIGN KEY ("post_id","account_id") REFERENCES "public"."target_metrics"("post_id","account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "target_metrics" ADD CONSTRAINT "target_metrics_post_id_account_id_post_targets_post_id_account_id_fk" FOREIGN KEY ("post_id","account_id") REFERENCES "public"."post_targets"("post_id","account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_metric_schedule_due" ON "account_metric_schedule" USING btree ("next_collect_at");--> statement-breakpoint
CREATE INDEX "target_metrics_due" ON "target_metrics" USING btree ("next_collect_at") WHERE "target_metrics"."state" = 'collecting';--> statement-breakpoint
CREATE INDEX "target_metrics_account_posted" ON "target_metrics" USING btree ("account_id","posted_at");