"""Drawing a system's diagram (pydrake.systems.drawing's): its Graphviz text rendered by pydot
and Graphviz's ``dot`` program (optional: the ``drawing`` extra brings pydot; ``dot`` comes
with Graphviz), shown with matplotlib, or as SVG in a notebook."""

import io

__all__ = ["plot_graphviz", "plot_system_graphviz"]


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def plot_graphviz(dot_text):
    """Renders the DOT graph ``dot_text``: as SVG in a notebook, else into the current
    matplotlib axes (returns the image)."""
    try:
        import pydot
    except ImportError as e:
        raise ImportError('plot_graphviz needs pydot: pip install "mallard[drawing]"') from e
    graph = pydot.graph_from_dot_data(dot_text)
    if isinstance(graph, list):
        (graph,) = graph
    if _in_notebook():
        from IPython.display import SVG, display

        return display(SVG(graph.create_svg()))
    import matplotlib.pyplot as plt

    plt.axis("off")
    return plt.imshow(plt.imread(io.BytesIO(graph.create_png()), format="png"), aspect="equal")


def plot_system_graphviz(system, **kwargs):
    """Renders ``system.GetGraphvizString(**kwargs)`` (see plot_graphviz)."""
    return plot_graphviz(system.GetGraphvizString(**kwargs))
