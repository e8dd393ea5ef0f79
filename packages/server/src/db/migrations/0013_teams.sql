CREATE TABLE "team_devices" (
	"team_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	CONSTRAINT "team_devices_team_id_device_id_pk" PRIMARY KEY("team_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "team_users" (
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"contact_role" text DEFAULT 'primary' NOT NULL,
	CONSTRAINT "team_users_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_name_key" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "team_devices" ADD CONSTRAINT "team_devices_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_devices" ADD CONSTRAINT "team_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_users" ADD CONSTRAINT "team_users_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_users" ADD CONSTRAINT "team_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_devices_device_idx" ON "team_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "team_users_user_idx" ON "team_users" USING btree ("user_id");