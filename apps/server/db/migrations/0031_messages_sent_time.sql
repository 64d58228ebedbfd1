-- The operator's count of the month's sent messages reads this index instead of the whole messages table (issue 16).
-- Building it holds writes to messages while it runs, longer on a large table.
CREATE INDEX "messages_sent_time_idx" ON "messages" USING btree ("created_at") WHERE sender <> 'contact';