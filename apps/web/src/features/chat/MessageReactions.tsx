import type { MessageReaction } from '@embudo/contracts/http/chats';

interface ReactionGroup {
  emoji: string;
  reactions: MessageReaction[];
}

/** One chip per emoji, in the order each emoji was first given, as WhatsApp groups them. */
function groupByEmoji(reactions: MessageReaction[]): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const reaction of reactions) {
    const group = groups.get(reaction.emoji) ?? { emoji: reaction.emoji, reactions: [] };
    group.reactions.push(reaction);
    groups.set(reaction.emoji, group);
  }
  return [...groups.values()];
}

/** "del cliente" in a one-to-one chat; a group's participant or a team member by name when there is one. */
function whoReacted(reaction: MessageReaction, isGroup: boolean) {
  if (reaction.from === 'contact') return isGroup && reaction.name ? `de ${reaction.name}` : 'del cliente';
  return reaction.name ? `de ${reaction.name}` : 'del equipo';
}

function reactionLabel(group: ReactionGroup, isGroup: boolean) {
  const who = group.reactions.map((reaction) => whoReacted(reaction, isGroup));
  if (who.length === 1) return `Reacción ${group.emoji} ${who[0]}`;
  return `${who.length} reacciones ${group.emoji}: ${who.slice(0, -1).join(', ')} y ${who.at(-1)}`;
}

/** The reactions under a bubble: small chips over its bottom edge (only its padding, never the time), on the side it hangs from. */
export function MessageReactions({ reactions, outgoing, isGroup }: { reactions: MessageReaction[]; outgoing: boolean; isGroup: boolean }) {
  const groups = groupByEmoji(reactions);
  if (groups.length === 0) return null;
  return (
    <ul data-testid="message-reactions" aria-label="Reacciones" className={`absolute -bottom-4 flex gap-1 ${outgoing ? 'right-3' : 'left-3'}`}>
      {groups.map((group) => {
        const label = reactionLabel(group, isGroup);
        return (
          <li
            key={group.emoji}
            aria-label={label}
            title={label}
            className="flex h-6 items-center gap-0.5 rounded-full bg-white px-1.5 text-sm leading-none shadow-sm ring-1 ring-slate-200"
          >
            <span aria-hidden="true">{group.emoji}</span>
            {group.reactions.length > 1 && (
              <span aria-hidden="true" className="text-[11px] font-medium text-slate-600">
                {group.reactions.length}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
