import type { RandomPartner } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { partnerCollege, partnerCourse } from './random-state';

/** The partner as a stranger may see them: first name, picture, college and course (or the fallbacks). */
export function PartnerCard({ partner }: { partner: RandomPartner | null }) {
  const name = partner?.firstName.trim() || 'A fellow student';
  return (
    <div className="random-partner" data-testid="random-partner">
      <Avatar
        user={{ firstName: name, lastName: '', profilePictureUrl: partner?.profilePictureUrl ?? null }}
        size="lg"
      />
      <p className="random-partner__name">{name}</p>
      <p className="random-meta">
        <span data-testid="random-partner-college">{partnerCollege(partner)}</span>
        <span data-testid="random-partner-course">{partnerCourse(partner)}</span>
      </p>
    </div>
  );
}
