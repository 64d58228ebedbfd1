-- Why a chat's AI is off when someone decided it, so a move into a column with an assistant switches on only the chats nobody took over (issue 44).
ALTER TABLE "cards" ADD COLUMN "ai_off_reason" text;
