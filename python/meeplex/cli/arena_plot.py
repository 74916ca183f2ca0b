"""``arena --plot``: win rates with their 95% intervals and the score distribution of each agent.

matplotlib is an optional extra (``pip install meeplex[plot]``): it is imported only here, and its absence is
reported before the run starts.
"""

from __future__ import annotations

import meeplex

from .arena import ArenaResult, _labels
from .common import CliError, short_game_string

MISSING = "--plot needs matplotlib, which is not installed: pip install meeplex[plot]"


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CliError(MISSING) from None


def plot_arena(result: ArenaResult, path: str) -> None:
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")  # a file, never a window: the arena runs in terminals and CI
    import matplotlib.pyplot as plt

    labels = _labels(result.agents)
    n = max(result.games, 1)
    rates = [100.0 * w / n for w in result.agent_wins]
    intervals = [result.win_interval(k) for k in range(len(labels))]
    # max(0, ...): the bounds hold the rate, but float rounding could make an error bar a hair negative.
    below = [max(0.0, rate - 100.0 * low) for rate, (low, _) in zip(rates, intervals, strict=True)]
    above = [max(0.0, 100.0 * high - rate) for rate, (_, high) in zip(rates, intervals, strict=True)]

    figure, (wins, scores) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
    title = short_game_string(meeplex.make(result.game))
    figure.suptitle(f"{title}: {result.games} games, seed {result.seed}")
    positions = range(len(labels))
    wins.bar(positions, rates, yerr=[below, above], capsize=6, color="tab:blue", alpha=0.8)
    wins.set_xticks(list(positions), labels)
    wins.set_ylabel("win rate (%)")
    wins.set_ylim(0, 100)
    wins.set_title("wins with 95% Wilson intervals")
    for x, rate in zip(positions, rates, strict=True):
        wins.annotate(f"{rate:.1f}%", (x, rate), textcoords="offset points", xytext=(0, 4), ha="center")

    scores.boxplot(result.agent_score_lists, tick_labels=labels, showmeans=True)
    scores.set_ylabel("score (state.scores())")
    scores.set_title("score distribution")
    try:
        figure.savefig(path, dpi=110)
    except (OSError, ValueError) as exc:  # a bad path or an unknown image format
        raise CliError(f"cannot write the plot {path}: {exc}") from None
    finally:
        plt.close(figure)
