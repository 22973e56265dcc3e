"""Parameter declaration, validation and hashing (core.params) through the set methods."""

import pytest

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.params import describe_params, make_params, params_dict, params_hash

QG = get_method("qgram")
BK = get_method("bottomk")


def test_defaults_and_ranges_are_described():
    infos = {i.name: i for i in describe_params(QG.Params)}
    assert infos["q"].default == 4 and infos["q"].minimum == 2 and infos["q"].maximum == 8
    assert infos["measure"].choices == ("resemblance", "containment")
    assert not infos["measure"].affects_sketch and not infos["window_hours"].affects_sketch
    assert infos["q"].affects_sketch
    assert infos["max_df"].label == "max document frequency"
    assert infos["window_hours"].label == "window hours"


def test_strings_are_converted():
    p = make_params(QG.Params, {"q": "5", "window_hours": "24", "measure": "containment"})
    assert (p.q, p.window_hours, p.measure) == (5, 24.0, "containment")


@pytest.mark.parametrize(
    "values, name",
    [
        ({"q": 1}, "q"),
        ({"q": 9}, "q"),
        ({"q": "four"}, "q"),
        ({"q": 4.5}, "q"),
        ({"measure": "cosine"}, "measure"),
        ({"window_hours": -1}, "window_hours"),
        ({"max_df": 0}, "max_df"),
    ],
)
def test_bad_values_name_the_parameter(values, name):
    with pytest.raises(ValueError, match=name):
        make_params(QG.Params, values)


def test_unknown_parameter_is_rejected():
    with pytest.raises(ValueError, match="unknown parameter 'qq'"):
        QG.params({"qq": 3})


def test_bottomk_ranges():
    with pytest.raises(ValueError, match="k"):
        BK.params({"k": 4})
    with pytest.raises(ValueError, match="k"):
        BK.params({"k": 2048})
    assert BK.params({"k": "256"}).k == 256


def test_params_are_frozen_and_hash_stably():
    p = QG.params()
    with pytest.raises(Exception):
        p.q = 5  # type: ignore[misc]
    assert params_hash(p) == params_hash(QG.params({"q": 4}))
    assert params_hash(p, sketch_only=True) == params_hash(QG.params({"max_df": 0.2}), sketch_only=True)
    assert params_hash(p) != params_hash(QG.params({"max_df": 0.2}))
    assert params_dict(p) == {"q": 4, "measure": "resemblance", "window_hours": 0.0, "max_df": 0.5, "ignore": ""}
