CREATE TABLE "activity_daily" (
	"org_id" text NOT NULL,
	"app_id" uuid,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"count" bigint NOT NULL,
	"total_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_daily_key" UNIQUE NULLS NOT DISTINCT("org_id","day","metric","app_id")
);
--> statement-breakpoint
CREATE TABLE "activity_org_users" (
	"org_id" text NOT NULL,
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "activity_org_users_key" UNIQUE("org_id","day","user_id")
);
--> statement-breakpoint
CREATE TABLE "activity_users" (
	"org_id" text NOT NULL,
	"app_id" uuid,
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "activity_users_key" UNIQUE NULLS NOT DISTINCT("org_id","day","app_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "actor_id" text;--> statement-breakpoint
ALTER TABLE "activity_daily" ADD CONSTRAINT "activity_daily_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_org_users" ADD CONSTRAINT "activity_org_users_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_org_users" ADD CONSTRAINT "activity_org_users_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_users" ADD CONSTRAINT "activity_users_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_users" ADD CONSTRAINT "activity_users_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;